import Dispatch
import Foundation
import ReckonEngine
import ReckonServer
import ReckonStateSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// `reckon serve`: the webhook, health and metrics endpoints, the sender and policy hot reload.
enum ServeCommand: Command {
  static let name = "serve"
  static let summary =
    "Answer Apple's and Google's notifications over HTTP, send replies, reload policies"
  static let options: [CommandOption] = [
    CommandOption("config", value: "reckon.json"),
    CommandOption("listen", value: "HOST:PORT"),
  ]
  static let help = """
    Usage: reckon serve [--config reckon.json] [--listen HOST:PORT]

    Listens on server.listen (or --listen; port 0 picks a free one) and answers:
      POST server.webhookPath   Apple's notifications: verified, recorded once, decided, queued;
                                200 once recorded, 500 if recording failed (Apple retries),
                                4xx if verification failed (never decided on)
      POST googlePlay.push.path Google Play's Pub/Sub pushes (with Google Play apps): the OIDC
                                token verified, then as Apple's; 503 while Google's signing
                                keys cannot be had (Pub/Sub delivers it again)
      GET  /healthz             200 when the state database answers and can be written
      GET  /metrics             Prometheus text: requests, decisions, sends, outbox depth, latency
    The sender runs in the same process for each store whose key is configured (appStore,
    googlePlay.serviceAccountKeyPath); requests a fact source failed on are retried every 30 s,
    also when its file could not be read at start-up (a warning, not a refusal). Policies are
    re-read when their file changes and on SIGHUP; a policy that fails `check` is refused and
    the previous one stays live. SIGTERM or SIGINT stops accepting, finishes in-flight requests
    and exits 0. Once it runs, logs are JSON lines on standard error; a start refused is one
    plain line and exit status 1.
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
    // A write past a file-size limit (RLIMIT_FSIZE) must fail like a full disk, with an error
    // the webhook answers 500 to, instead of SIGXFSZ killing the server.
    signal(SIGXFSZ, SIG_IGN)
    // Nor may a log reader that went away (a shipper restarting behind a pipe): its lines are
    // dropped, as a full disk's are, and the webhook goes on answering.
    signal(SIGPIPE, SIG_IGN)
    // Held for as long as the service runs, so a state migrate cannot move the file from under
    // it, nor it start on a file being moved.
    let state = StateChoice(configuration)
    let held = try state.holdAgainstMove()
    defer { held?.release() }
    let serve = try ServeProcess(
      configuration: configuration, state: state.opener,
      listenKey: listen == nil ? "server.listen" : "--listen")
    // Handled before `listening` is logged (`StopSignals` returns once the handlers are in
    // place): a supervisor that stops the server as soon as it says it listens must find
    // SIGTERM handled, not ignored or fatal.
    let signals = StopSignals(onStop: serve.stop, onHangUp: serve.reloadPolicies)
    serve.announce()
    await signals.wait()
    return 0
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
