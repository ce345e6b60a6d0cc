import Dispatch
import Foundation
import ReckonEngine
import ReckonHTTP
import ReckonServer

#if canImport(Glibc)
  import Glibc
#endif

/// `reckon serve`: the webhook, health and metrics endpoints, the sender and policy hot reload.
enum ServeCommand: Command {
  static let name = "serve"
  static let summary = "Answer Apple's notifications over HTTP, send replies, reload policies"
  static let flagNames: Set<String> = []
  static let help = """
    Usage: reckon serve [--config reckon.json] [--listen HOST:PORT]

    Listens on server.listen (or --listen; port 0 picks a free one) and answers:
      POST server.webhookPath   Apple's notifications: verified, recorded once, decided, queued;
                                200 once recorded, 500 if recording failed (Apple retries),
                                4xx if verification failed (never decided on)
      GET  /healthz             200 when the state database answers and can be written
      GET  /metrics             Prometheus text: requests, decisions, sends, outbox depth, latency
    The sender runs in the same process (when appStore is configured); requests a fact source
    failed on are retried every 30 s, also when its file could not be read at start-up (a
    warning, not a refusal). Policies are re-read when their file changes and on
    SIGHUP; a policy that fails `check` is refused and the previous one stays live. SIGTERM or
    SIGINT stops accepting, finishes in-flight requests and exits 0. Once it runs, logs are JSON
    lines on standard error; a start refused is one plain line and exit status 1.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    // SIGHUP reloads the policies once the service runs; one sent while it starts (a
    // supervisor's reload as it comes up) finds the policies about to be read anyway, and must
    // not kill the process. `StopSignals` handles it from then on.
    signal(SIGHUP, SIG_IGN)
    var configuration = try ReckonConfiguration.load(
      path: arguments.option("config") ?? "reckon.json")
    let listen = arguments.option("listen")
    try arguments.rejectUnknown()
    if let listen { try override(&configuration, listen: listen) }
    let logger = JSONLogger()
    // A write past a file-size limit (RLIMIT_FSIZE) must fail like a full disk, with an error
    // the webhook answers 500 to, instead of SIGXFSZ killing the server.
    signal(SIGXFSZ, SIG_IGN)
    // Taken before anything else starts, so a second server refuses to start instead of running
    // without a sender; the sender releases it when it stops.
    var senderLock: SenderLock?
    // Named as the state database's problem, not as a lock file the operator never configured;
    // another program's database is refused before a lock file is left beside it.
    try StateStore.checkFolder(of: configuration.statePath)
    try StateStore.checkIsOurs(path: configuration.statePath)
    if configuration.appStoreKey != nil {
      do throws(SenderLockError) {
        senderLock = try SenderLock(statePath: configuration.statePath)
      } catch {
        console.error("reckon serve: \(error)")
        return 1
      }
    }
    let metrics = ReckonMetrics()
    let events = HeldEvents(logger: logger)
    let service = try ReckonService(
      configuration: configuration, transport: CurlHTTPClient(),
      warn: events.warn,
      events: { event in
        metrics.record(event)
        events.log(event)
      })
    if senderLock != nil {
      for warning in try SenderSetup.carriedOver(service.store) { events.warn(warning) }
    }
    let server = WebhookServer(
      service: service, configuration: configuration.server, metrics: metrics, logger: logger)
    let port: Int
    do throws(HTTPServerError) { port = try server.start(senderLock: senderLock) } catch {
      // Name where the address came from: the operator fixes it there.
      throw ConfigurationError(
        listen == nil ? "server.listen" : "--listen",
        "cannot listen on \(configuration.server.host):\(configuration.server.port): \(error.reason)"
      )
    }
    // Bound: the start's own lines go out now, before `listening`, which a supervisor or a test
    // may take as the moment to look (or to stop it).
    events.release()
    // Handled before `listening` is logged (`StopSignals` returns once the handlers are in
    // place): a supervisor that stops the server as soon as it says it listens must find
    // SIGTERM handled, not ignored or fatal.
    let signals = stopSignals(server, logger)
    let url = "http://\(configuration.server.host):\(port)"
    // What an operator checks first when nothing seems to happen: which database, which App
    // Store, whether this process sends at all.
    let sender =
      configuration.appStoreKey == nil
      ? "off (no appStore key configured: replies wait in the outbox for reckon send)"
      : "to \(configuration.appStoreKey?.baseURL ?? "Apple's App Store Server API")"
    logger.log(
      "info", event: "listening",
      "listening on \(url)\(configuration.server.webhookPath); state \(configuration.statePath); "
        + "sending \(sender)",
      fields: [
        "url": url, "webhook": configuration.server.webhookPath,
        "state": configuration.statePath,
        "sender": configuration.appStoreKey == nil ? "off" : "on",
      ])
    await signals.wait()
    return 0
  }

  /// SIGTERM or SIGINT stops the server; SIGHUP reloads the policies.
  private static func stopSignals(_ server: WebhookServer, _ logger: JSONLogger) -> StopSignals {
    StopSignals(
      onStop: {
        logger.log("info", event: "stopping", "finishing in-flight requests, then stopping")
        server.shutdown()
        logger.log("info", event: "stopped", "stopped")
      },
      onHangUp: {
        logger.log("info", event: "reload", "SIGHUP: re-reading the policies")
        server.reloadPolicies()
      })
  }

  private static func override(_ configuration: inout ReckonConfiguration, listen: String)
    throws(UsageError)
  {
    do throws(ListenAddress.Problem) {
      (configuration.server.host, configuration.server.port) = try ListenAddress.parse(listen)
    } catch {
      throw UsageError("--listen \(error)")
    }
  }
}
