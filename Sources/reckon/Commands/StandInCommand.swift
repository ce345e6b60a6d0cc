import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonStandIn
import ReckonSupport

/// `reckon standin`: the local App Store stand-in as a process, for demos and manual tests.
enum StandInCommand: Command {
  static let name = "standin"
  static let summary =
    "Run a local App Store stand-in that checks tokens and bodies and records them"
  static let options: [CommandOption] = [
    CommandOption("config", value: "reckon.json"),
    CommandOption("port", value: "N"),
    CommandOption("record", value: "FILE"),
    CommandOption("create-key"),
    CommandOption("answer", value: "429|500|401|404"),
    CommandOption("times", value: "N"),
    CommandOption("google-play"),
  ]
  static let help = """
    Usage: reckon standin [--config reckon.json] [--port N] [--record FILE] [--create-key]
                          [--answer 429|500|401|404] [--times N]
           reckon standin --google-play [--config reckon.json] [--port N] [--record FILE]
                          [--create-key]

    Listens on 127.0.0.1 (port 0, the default, picks a free one) as the App Store Server API's
    consumption endpoint for the configuration's apps: it checks each request's ES256 token
    against the public half of appStore.privateKeyPath, appStore.issuerId and appStore.keyId,
    checks the body against Apple's rules, answers 202 (or 400/401 as Apple would) and appends
    each request to --record FILE as a JSON line. It does not know a transaction as Apple does
    (its product type, family sharing, Advanced Commerce), so the rules that depend on that (no
    percentage for an auto-renewable, a percentage with every other prorated grant, no reply
    for a family-shared, assigned or Advanced Commerce purchase) are not checked here; Reckon
    checks them before it queues a reply. Prints "listening on URL" when ready; stops on
    SIGTERM or SIGINT. --create-key writes a fresh test key to appStore.privateKeyPath (mode 0600)
    if no file is there. Never point a real App Store key at it.

    To rehearse an outage, --answer makes it answer requests that pass its checks as Apple does
    when it is in trouble: 429 (rate limited, Retry-After 5 s on), 500 (Apple's 5000000 error),
    401 (credentials refused) or 404 (transaction not found); the first N of them with
    --times N, then 202 again; every one without it.

    With --google-play it is Google Play instead: an OAuth token endpoint (/token) that checks
    the service account's RS256 assertion against the public half of the key in
    googlePlay.serviceAccountKeyPath, and orders.reviewrefund, which checks the bearer token and
    the body against Google's rules and keeps the first answer to each review (later ones are
    answered 200 and ignored, as Google does). It takes an answer for any order, as a review
    opened then. --create-key writes a test service account key file there (mode 0600) whose
    token_uri is this stand-in; set googlePlay.baseURL to the printed URL. --record appends
    each call as a JSON line.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let configuration = try ReckonConfiguration.load(
      path: arguments.option("config") ?? "reckon.json")
    let port = Int(arguments.option("port") ?? "0") ?? -1
    let record = arguments.option("record")
    let createKey = arguments.flag("create-key")
    if arguments.flag("google-play") {
      try arguments.rejectUnknown()
      guard (0...65_535).contains(port) else { throw UsageError("--port must be 0...65535") }
      return try await GooglePlayStandInRun(
        configuration: configuration, port: port, record: record, createKey: createKey
      ).run(console)
    }
    let answer = try arguments.option("answer").map(Self.fault)
    let times = try arguments.option("times").map(Self.times)
    try arguments.rejectUnknown()
    guard (0...65_535).contains(port) else { throw UsageError("--port must be 0...65535") }
    if times != nil, answer == nil { throw UsageError("--times counts --answer's answers") }
    guard let settings = configuration.appStoreKey else {
      throw UsageError("the configuration has no appStore section to take the key from")
    }
    if createKey, !FileManager.default.fileExists(atPath: settings.privateKeyPath) {
      let key = try PrivateKey(generatedFor: "reckon standin test key")
      do throws(LocalFileError) {
        try LocalFile.createPrivate(at: settings.privateKeyPath, with: key.pkcs8PEM())
      } catch {
        throw UsageError("--create-key: \(error)")
      }
    }
    let standIn = try AppStoreStandIn(
      publicKeyPEM: try PrivateKey(path: settings.privateKeyPath).publicKeyPEM(),
      expected: .init(
        issuerId: settings.issuerId, keyId: settings.keyId,
        bundleIds: Set(configuration.apps.map(\.bundleId))))
    // Opened before listening: a file that cannot be written is refused, not silently skipped.
    let recorder = try record.map { path throws(UsageError) in
      do { return try StandInRecorder(path: path, standIn: standIn) } catch {
        throw UsageError("--record \(error)")
      }
    }
    let flush: @Sendable () -> Void = {
      if let failure = recorder?.flush() { console.error("reckon standin: --record \(failure)") }
    }
    if let answer { standIn.respond(with: FaultAnswers(answer, times: times).next) }
    let url = try standIn.start(port: port)
    // Written unbuffered: a script waits for this line to learn the port.
    FileHandle.standardOutput.write(Data("listening on \(url.absoluteString)\n".utf8))
    await waitForSignal(tick: flush)
    standIn.shutdown()
    flush()
    return 0
  }

  /// The statuses `--answer` takes.
  private static func fault(_ text: String) throws(UsageError) -> Int {
    guard let status = Int(text), FaultAnswers.statuses.contains(status) else {
      throw UsageError("--answer takes 429, 500, 401 or 404, not '\(text)'")
    }
    return status
  }

  private static func times(_ text: String) throws(UsageError) -> Int {
    guard let count = Int(text), count > 0 else {
      throw UsageError("--times takes a whole number above 0, not '\(text)'")
    }
    return count
  }

  /// Calls `tick` every 100 ms until SIGTERM or SIGINT.
  private static func waitForSignal(tick: @escaping @Sendable () -> Void) async {
    let signals = StopSignals()
    while !signals.isStopped {
      tick()
      try? await Task.sleep(nanoseconds: 100_000_000)
    }
  }
}
