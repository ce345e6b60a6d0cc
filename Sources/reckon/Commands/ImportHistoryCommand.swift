import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonStateSQLite
import ReckonTools

/// `reckon import-history`: past notifications from Apple into the state database.
enum ImportHistoryCommand: Command {
  static let name = "import-history"
  static let summary = "Import past refund requests and outcomes from Apple's notification history"
  static let options: [CommandOption] = [
    CommandOption("config", value: "reckon.json"),
    CommandOption("since", value: "DATE"),
    CommandOption("until", value: "DATE"),
  ]
  static let help = """
    Usage: reckon import-history [--config reckon.json] --since DATE [--until DATE]

    Fetches CONSUMPTION_REQUEST, REFUND, REFUND_DECLINED and REFUND_REVERSED notifications from
    Apple's Get Notification History (at most 180 days back, asked in 30-day windows, every page),
    verifies each against the configured roots, and stores them in the configured state database,
    each once (by notificationUUID), so a new install can work on history at once:
    `reckon dry-run --state … --facts current` decides the imported requests on today's facts
    (none were recorded for them), and `reckon report outcomes` shows what Apple decided for
    them, as "imported history (not answered by Reckon)", by reason and product type. An
    imported request is not answered, unless Apple delivers it to the webhook again (Apple
    retries only what got no 200): that delivery is decided and answered like any other. Each
    configured app is imported with the configured App Store key.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    // `reckon.json` in the working directory, as for serve, send and queue.
    let configuration = try ReckonConfiguration.load(
      path: arguments.option("config") ?? "reckon.json")
    _ = try arguments.required("since")
    let range = try DateRangeOptions(&arguments)
    guard let since = range.since else { throw UsageError("--since DATE is required") }
    let until = range.until
    try arguments.rejectUnknown()
    let now = Date()
    // Apple has no history after now: a run from a later day would import nothing and say so
    // only as "0 notifications", which reads like an empty history.
    guard since < now else {
      throw UsageError(
        "--since \(since.formatted(.iso8601)) is in the future: Apple's history ends now "
          + "(\(now.formatted(.iso8601)))")
    }
    let client = try SenderSetup.client(configuration, transport: CurlHTTPClient()) {
      console.error($0)
    }
    let verifier = try DryRunSetup.verifier(configuration)
    let state = StateChoice(configuration)
    let held = try state.holdAgainstMove()
    defer { held?.release() }
    let store = try state.open(access: .create, durability: configuration.stateDurability)
    var failed = false
    for app in configuration.apps {
      if let note = HistoryImporter.startNote(since: since, now: now, environment: app.environment)
      {
        console.error(
          "reckon import-history: \(app.bundleId) (\(app.environment.rawValue)): \(note)")
      }
      let history = NotificationHistoryClient(
        client: client, app: AppStoreApp(bundleId: app.bundleId, environment: app.environment),
        transport: CurlHTTPClient(timeout: 30, maximumConnections: 1))
      let summary: HistoryImporter.Summary
      do {
        summary = try await HistoryImporter(client: history, verifier: verifier, store: store)
          .run(since: since, until: until, now: now)
      } catch let error as NotificationHistoryError {
        // Which app's import stopped, and for a refused key what to run.
        var message = "\(app.bundleId) (\(app.environment.rawValue)): \(error)"
        if case .answered(let status, _) = error, status == 401 || status == 403 {
          message += "; check the key, issuer id and bundle id with reckon keys check"
        }
        console.error("reckon import-history: " + message)
        return 1
      }
      console.out(
        "\(app.bundleId) (\(app.environment.rawValue)): \(summary.fetched) notifications in \(summary.pages) pages; stored \(summary.requests) requests and \(summary.outcomes) outcomes; \(summary.duplicates) already stored; \(summary.unverified.count) failed verification"
      )
      for problem in summary.unverified.prefix(5) { console.error("  not stored: \(problem)") }
      failed = failed || !summary.unverified.isEmpty
    }
    // It may run beside a service: copying what it can at once never holds the write lock
    // waiting for the service's readers.
    try store.checkpoint(waitingForOthers: false)
    return failed ? 1 : 0
  }
}
