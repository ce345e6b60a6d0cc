import Foundation
import ReckonHTTP
import ReckonTools

/// `reckon doctor`: what a service needs before Apple is pointed at it, checked one by one.
enum DoctorCommand: Command {
  static let name = "doctor"
  static let summary = "Check a configuration is ready to go live, one line per check"
  static let options: [CommandOption] = [
    CommandOption(
      "config", value: "FILE", help: "the configuration to check (default reckon.json)"),
    CommandOption(
      "url", value: "URL",
      help: [
        "the URL App Store Connect posts to, or Google Play's Pub/Sub pushes to",
        "(its path, or /healthz): a GET must reach reckon serve; without it the",
        "check is skipped",
      ]),
    CommandOption(
      "transaction-id", value: "ID",
      help: "ask the fact sources about this transaction (default: a made-up one)"),
    CommandOption(
      "offline",
      help: [
        "ask no store anything: not the App Store or Google for the clock (the",
        "url's answer may stand in), nor Google for its signing keys",
      ]),
    CommandOption("format", value: "FORMAT", help: "text (default) or json"),
  ]
  static let help = """
    Usage: reckon doctor [--config reckon.json] [--url URL] [--transaction-id ID] [--offline]
                         [--format text|json]

    Checks what docs/going-live.md lists, one line each: ok, FAIL or skip, the check's name, and
    what was found (a quoted source line and its caret under it). The App Store key loads and
    signs ES256 tokens that verify; with Google Play apps, the service account key loads and
    signs RS256, and Google's push signing keys load; the trusted roots load (Apple's, for
    Production and Sandbox apps); each policy checks, in its store's words, and passes the
    tests beside it; a fact source gives customer.consented; each fact source answers a
    lookup; the state database opens and takes a write that leaves nothing behind; the webhook
    URL reaches reckon serve (with --url); and this machine's clock agrees with the store's
    (its Date header; skipped, saying so, when offline). Run it as the service's user: what
    this user can read and write is what is checked.

    \(CommandOption.table(options, column: 22))
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "no check failed (some may be skipped)"),
    (1, "a check failed; its line says what to fix"),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let format = try OutputFormat.option(&arguments) ?? .text
    let url = try arguments.option("url").map { text throws(UsageError) in
      guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
        throw UsageError(
          "--url must be a full URL, e.g. https://refunds.example.com/apple/notifications")
      }
      return url
    }
    let options = GoLiveDoctor.Options(
      configurationPath: arguments.option("config") ?? "reckon.json", webhookURL: url,
      transactionId: arguments.option("transaction-id"), offline: arguments.flag("offline"))
    try arguments.rejectUnknown()
    let doctor = GoLiveDoctor(
      options, transport: CurlHTTPClient(timeout: GoLiveDoctor.requestTimeout),
      state: { StateChoice($0).opener })
    let report = await doctor.run()
    console.out(format == .json ? report.jsonText() : report.text)
    return report.passed ? 0 : 1
  }
}
