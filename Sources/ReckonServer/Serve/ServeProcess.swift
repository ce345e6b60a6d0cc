import Foundation
import ReckonEngine
import ReckonHTTP
import ReckonState

/// `reckon serve` put together from `reckon.json`: the sender's lock, the service with its
/// metrics and held start-up lines, and the webhook server, bound and running. The caller owns
/// the process (its signals and exit); everything else is here, so an embedder can run the same.
public final class ServeProcess: Sendable {
  /// The port the server listens on (the one the system picked, for port 0).
  public let port: Int
  private let server: WebhookServer
  private let logger: JSONLogger
  private let configuration: ReckonConfiguration

  /// Starts serving `configuration` over the state `state` opens (ReckonStateSQLite's
  /// `SQLiteStateOpener()` for `state.path`); `listenKey` names where `server.listen` came from
  /// (`server.listen`, or a command's `--listen`) in the error when it cannot be bound. The
  /// start's own log lines go out once the address is bound, before this returns.
  public init(
    configuration: ReckonConfiguration, state opener: any StateOpener,
    listenKey: String = "server.listen"
  ) throws {
    self.configuration = configuration
    let logger = JSONLogger()
    self.logger = logger
    // Taken before anything else starts, so a second server refuses to start instead of running
    // without a sender; the sender releases it when it stops.
    var senderLock: (any SenderLease)?
    // Named as the state database's problem, not as a lock file the operator never configured;
    // another program's database is refused before a lock file is left beside it.
    try ThreadBudget.check(
      maximumConnections: configuration.server.maximumConnections, limit: ThreadBudget.userLimit())
    try opener.check(location: configuration.stateLocation)
    if configuration.sendsAnswers {
      senderLock = try opener.takeSenderLease(location: configuration.stateLocation)
    }
    let metrics = ReckonMetrics()
    let events = HeldEvents(logger: logger)
    let service = try ReckonService(
      configuration: configuration, state: opener, transport: CurlHTTPClient(),
      warn: events.warn,
      events: { event in
        metrics.record(event)
        events.log(event)
      })
    if senderLock != nil {
      for warning in try SenderSetup.carriedOver(service.store, apps: configuration.appKeys) {
        events.warn(warning)
      }
    }
    server = WebhookServer(
      service: service, configuration: configuration.server, metrics: metrics, logger: logger,
      googlePlayPath: configuration.googlePlayApps.isEmpty
        ? nil : configuration.googlePlay?.pushPath)
    do throws(HTTPServerError) { port = try server.start(senderLock: senderLock) } catch {
      // Name where the address came from: the operator fixes it there.
      throw ConfigurationError(
        listenKey,
        "cannot listen on \(configuration.server.host):\(configuration.server.port): \(error.reason)"
      )
    }
    // Bound: the start's own lines go out now, before `listening`, which a supervisor or a test
    // may take as the moment to look (or to stop it).
    events.release()
  }

  /// Logs `listening`: call it once the process handles SIGTERM, since a supervisor that stops
  /// the server as soon as it says it listens must find the signal handled.
  public func announce() {
    let line = Self.listening(configuration, url: "http://\(configuration.server.host):\(port)")
    logger.log("info", event: "listening", line.message, fields: line.fields)
  }

  /// The `listening` line for `configuration` served at `url`. What an operator checks first
  /// when nothing seems to happen: which database, where each store posts, and whether this
  /// process sends each store's answers at all (`sender` on, off or partial).
  static func listening(_ configuration: ReckonConfiguration, url: String) -> (
    message: String, fields: [String: String]
  ) {
    let appStore = !configuration.apps.isEmpty || configuration.googlePlayApps.isEmpty
    let googlePlay = configuration.googlePlayApps.isEmpty ? nil : configuration.googlePlay
    var paths: [String] = []
    var sending: [String] = []
    var waiting: [String] = []
    if appStore {
      paths.append(configuration.server.webhookPath)
      if let key = configuration.appStoreKey {
        sending.append("to \(key.baseURL ?? "Apple's App Store Server API")")
      } else {
        waiting.append("no appStore key configured")
      }
    }
    if let googlePlay {
      paths.append(googlePlay.pushPath)
      if googlePlay.serviceAccountKeyPath != nil {
        sending.append("to \(googlePlay.baseURL ?? "Google Play's Developer API")")
      } else {
        waiting.append("no googlePlay.serviceAccountKeyPath configured")
      }
    }
    let off =
      waiting.isEmpty
      ? ""
      : "off (\(waiting.joined(separator: "; ")): replies wait in the outbox until it is "
        + "configured, then go out at the next start or reckon send)"
    let said =
      sending.isEmpty ? off : sending.joined(separator: " and ") + (off.isEmpty ? "" : "; " + off)
    var fields = [
      "url": url, "webhook": paths[0], "state": configuration.stateLocation,
      "sender": sending.isEmpty ? "off" : waiting.isEmpty ? "on" : "partial",
    ]
    if appStore, let googlePlay { fields["googlePlayPush"] = googlePlay.pushPath }
    let message =
      "listening on " + paths.map { url + $0 }.joined(separator: " and ")
      + "; state \(configuration.stateLocation); sending \(said)"
    return (message, fields)
  }

  /// Stops accepting, finishes in-flight requests and stops the loops, logging each step.
  public func stop() {
    logger.log("info", event: "stopping", "finishing in-flight requests, then stopping")
    server.shutdown(timeout: configuration.server.shutdownGraceSeconds)
    logger.log("info", event: "stopped", "stopped")
  }

  /// Re-reads the policies, as SIGHUP asks.
  public func reloadPolicies() {
    logger.log("info", event: "reload", "SIGHUP: re-reading the policies")
    server.reloadPolicies()
  }
}
