import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonServer
import ReckonState
import ReckonStateSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// `reckon send [--once]`: delivers due outbox entries to Apple and Google Play.
enum SendCommand: Command {
  static let name = "send"
  static let summary =
    "Send due replies to Apple and Google (--once: drain what is due and exit, for cron)"
  static let options: [CommandOption] = [
    CommandOption("once"),
    CommandOption("format", value: "text|json"),
    CommandOption("config", value: "reckon.json"),
  ]
  static let help = """
    Usage: reckon send [--once [--format text|json]] [--config reckon.json]

    Sends the outbox's due replies, paced per app: Apple's to the App Store Server API (the
    appStore key), retrying 429 and 5xx until each reply's 12-hour deadline; Google Play's to
    orders.reviewrefund (googlePlay.serviceAccountKeyPath), within its 24 hours. A send found
    unfinished after a crash goes out again to Apple; a Google Play answer, which Google may
    have recorded (it takes only the first), is failed instead, not sent again on its own.
    Events are written to standard error as JSON lines; expiries and credentials problems are
    errors. With --once it drains what is due now and exits (0, or 1 if anything failed or
    expired, or an app's sending is paused for a credentials problem), and prints what it did
    (--format json: {"expired":0,"failed":0,"retrying":0,"sent":1});
    without it, it keeps running until SIGTERM or SIGINT, when the sends in flight
    finish and are recorded before it exits 0 (SIGHUP is logged and ignored: the configuration
    is read once, at start). Only one sender may use an SQLite state at a time; on PostgreSQL
    every sender claims the replies it sends, so one may run beside the instances.
    A fact source whose file cannot be read at start-up (missing, locked) is a warning, not a
    refusal: replies decided a minute or more ago, whose consent is read again, wait with backoff
    until it opens; the others go out.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let once = arguments.flag("once")
    // The running sender has nothing to re-read (its configuration is read once, here), and a
    // SIGHUP, the usual "reload" signal, must not kill it part way through a send.
    if !once { signal(SIGHUP, SIG_IGN) }
    // A log reader that went away must not stop it between a send and its record either.
    signal(SIGPIPE, SIG_IGN)
    let configuration = try ReckonConfiguration.load(
      path: arguments.option("config") ?? "reckon.json")
    let format = try OutputFormat.option(&arguments)
    try arguments.rejectUnknown()
    if format != nil, !once {
      throw UsageError("--format is for --once: the running sender logs JSON")
    }
    // serve's logger, so one log pipeline reads both: the same fields, `event` included.
    let logger = JSONLogger(write: { console.error($0) })
    // Everything that can refuse the configuration first (the key, the state database, the fact
    // sources the consent re-check asks), so a configuration that cannot send leaves no lock. A
    // fact source whose file cannot be read now is a warning: fresh replies need no consent
    // re-check, and the others wait until it opens.
    let warn = { logger.log("warning", event: "startup", $0) }
    let transport = CurlHTTPClient()
    // A service answering Google Play alone needs no App Store key.
    let answerSender = try configuration.googlePlay.flatMap { settings in
      do throws(GooglePlaySetup.Failure) {
        return try GooglePlaySetup.client(settings, transport: transport)
      } catch {
        throw ReckonServiceError.googlePlay(error)
      }
    }
    // Google Play's apps alone need no App Store key, but a key of their own.
    if configuration.apps.isEmpty, answerSender == nil {
      throw SenderSetup.Failure.noGooglePlayKeyConfigured
    }
    let client: (any ConsumptionSender)? =
      configuration.appStoreKey == nil && answerSender != nil
      ? nil : try SenderSetup.client(configuration, transport: transport, warn: warn)
    // Held while it sends, as serve holds it: a move started meanwhile would leave the sends
    // recorded after its copy in the file, and one under way is named rather than taken for
    // another sender (it holds the sender lock too).
    let state = StateChoice(configuration)
    let held = try state.holdAgainstMove()
    defer { held?.release() }
    let store = try state.open(access: .create, durability: configuration.stateDurability)
    let sender = try SenderSetup.sender(
      configuration, store: store, client: client, answerSender: answerSender, warn: warn,
      facts: { logger.log($0) },
      events: { logger.log(.sender($0)) })
    // Held until this function returns; the kernel releases it if the process dies.
    let lock: any SenderLease
    do throws(SenderLockError) { lock = try store.takeSenderLease() } catch {
      console.error("reckon send: \(error)")
      return 1
    }
    defer { lock.release() }
    // However it ends, the state file alone then holds every send recorded (a copy of it is
    // complete); a reader in another process may keep part of the log, which is no loss.
    defer { _ = try? store.checkpoint() }
    for warning in try SenderSetup.carriedOver(store, apps: configuration.appKeys) {
      warn(warning)
    }
    guard once else {
      // In-flight sends finish and are recorded; the loop then sees the flag within a second.
      let signals = StopSignals(
        onStop: { logger.log("info", event: "stopping", "stopping after the sends in flight") },
        onHangUp: {
          logger.log(
            "info", event: "reload",
            "SIGHUP: reckon send has nothing to re-read; restart it to apply a changed configuration"
          )
        })
      let waiting = (try? store.outboxDepth()).map { StateGauges(outboxDepth: $0).waiting }
      logger.log(
        "info", event: "started",
        "sending replies from \(configuration.stateLocation)"
          + (waiting.map { " (\($0) waiting)" } ?? ""),
        fields: ["state": configuration.stateLocation])
      try await sender.run(pollInterval: 1, holding: lock) { signals.isStopped }
      logger.log("info", event: "stopped", "stopped")
      return 0
    }
    let summary = try await sender.drainDue(holding: lock)
    if format == .json {
      console.out(
        #"{"expired":\#(summary.expired),"failed":\#(summary.failed),"retrying":\#(summary.retrying),"sent":\#(summary.sent)}"#
      )
    } else {
      console.out(
        "sent \(summary.sent), retrying later \(summary.retrying), failed \(summary.failed), expired \(summary.expired)"
      )
    }
    // A credentials pause keeps every reply of its app waiting, in this run and the next ones
    // until it ends: said each time, and not a success a cron job would stay quiet about.
    let now = Date()
    let paused = try store.pauses().filter { $0.until > now }
    for pause in paused {
      console.error(
        "reckon send: sending is paused for \(pause.app.bundleId) (\(pause.app.environment)) "
          + "until \(pause.until.formatted(.iso8601)): \(pause.reason); "
          + SenderEvent.credentialsCheck(pause.app))
    }
    return summary.failed + summary.expired > 0 || !paused.isEmpty ? 1 : 0
  }
}
