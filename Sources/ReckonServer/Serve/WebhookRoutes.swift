import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonState
import ReckonSupport

/// The routes `reckon serve` answers: `POST` on the webhook path (Apple) and on Google Play's
/// push path, `GET /healthz` and `GET /metrics`; anything else is 404 (or 405 for a known
/// path with the wrong method).
public struct WebhookRoutes: Sendable {
  /// The service behind the webhook.
  public let service: ReckonService
  /// Where Apple posts notifications, e.g. `/apple/notifications`.
  public let webhookPath: String
  /// The metrics to count into and render.
  public let metrics: ReckonMetrics
  /// The names of the service's loops that stopped on an error (`loop_failed`), which
  /// `/healthz` reports as unhealthy: a restart brings them back.
  public let stoppedLoops: @Sendable () -> [String]
  /// Whether this instance leads the once-only work, which `/healthz` and `/metrics` report.
  public let isLeader: @Sendable () -> Bool
  /// Where `/healthz` and `/metrics` read the state's gauges: a cache refreshed off the request
  /// path, or nil to read the state on each request.
  public let gauges: StateGaugeCache?
  /// How old the cache's reading may be before `/healthz` says the state stopped answering.
  public let staleAfter: TimeInterval
  /// Where Google Play's Pub/Sub subscription pushes, e.g. `/google/rtdn`; nil without one.
  public let googlePlayPath: String?

  /// Routes for `service` with the webhook on `webhookPath`.
  public init(
    service: ReckonService, webhookPath: String, metrics: ReckonMetrics,
    stoppedLoops: @escaping @Sendable () -> [String] = { [] },
    isLeader: @escaping @Sendable () -> Bool = { true }, gauges: StateGaugeCache? = nil,
    staleAfter: TimeInterval = 15, googlePlayPath: String? = nil
  ) {
    self.googlePlayPath = googlePlayPath
    self.service = service
    self.webhookPath = webhookPath
    self.metrics = metrics
    self.stoppedLoops = stoppedLoops
    self.isLeader = isLeader
    self.gauges = gauges
    self.staleAfter = staleAfter
  }

  /// The state's gauges now, from the cache when there is one; nil when they could not be read
  /// (or the cache's reading is stale).
  private func currentGauges(now: Date) -> StateGauges? {
    guard let gauges else { return try? service.store.gauges(now: now) }
    guard !gauges.isStale(now: now, limit: staleAfter) else { return nil }
    return gauges.current.gauges
  }

  /// Answers one request.
  public func respond(to request: HTTPRequest) async -> HTTPResponse {
    switch request.path {
    case webhookPath where service.answersAppStore:
      guard request.method == "POST" else { return notAllowed(request, "POST") }
      let started = ContinuousClock.now
      let answer = await service.answer(
        body: request.body, from: request.client, requestId: request.header("X-Request-Id"))
      let elapsed = ContinuousClock.now - started
      metrics.observeLatency(
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
      return Self.response(answer)
    case let path where path == googlePlayPath:
      guard request.method == "POST" else { return notAllowed(request, "POST") }
      let started = ContinuousClock.now
      let answer = await service.answerGooglePlay(
        body: request.body, authorization: request.header("Authorization"),
        from: request.client, requestId: request.header("X-Request-Id"))
      let elapsed = ContinuousClock.now - started
      metrics.observeLatency(
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
      return Self.response(answer)
    case "/healthz":
      guard request.method == "GET" || request.method == "HEAD" else {
        return notAllowed(request, "GET, HEAD")
      }
      return health()
    case "/metrics":
      guard request.method == "GET" || request.method == "HEAD" else {
        return notAllowed(request, "GET, HEAD")
      }
      // Nil when the file cannot be read: zeros would pass a stuck queue off as an empty one.
      let now = Date()
      let gauges = currentGauges(now: now)
      return HTTPResponse(
        status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
        body: Data(
          metrics.render(
            state: gauges, unsignedAccepted: service.unsignedEnvironments.map(\.rawValue),
            leader: isLeader(), factSourcesHung: service.factSourcesHung,
            policiesRefused: service.policies.filesRefused(), now: now
          ).utf8))
    default:
      refused(request, 404, "no route (\(webhooks))")
      return .text(404, "not found\n")
    }
  }

  /// The webhooks this service answers on, for a 404's log line.
  private var webhooks: String {
    let paths = (service.answersAppStore ? [webhookPath] : []) + (googlePlayPath.map { [$0] } ?? [])
    switch paths.count {
    case 0: return "no app is configured"
    case 1: return "the webhook is \(paths[0])"
    default: return "the webhooks are \(paths.joined(separator: " and "))"
    }
  }

  /// 200 when the state database answers and can be written, 503 when it cannot: reads go on
  /// in WAL mode while writes fail (a full disk, a lock held by another process), and then every
  /// notification is answered 500. After a failed write the check writes itself, so it turns
  /// 200 again as soon as the file can be written, traffic or not. The reason is logged, not
  /// given to whoever asks.
  private func health() -> HTTPResponse {
    let unreachable = HTTPResponse.json(
      503, Data(#"{"status":"unavailable","state":"unreachable"}"#.utf8))
    // Checked on the request, and first: a write that failed is known at once, where the
    // cached gauges are up to a refresh old.
    if let problem = service.store.writeProblem {
      do throws(StateError) { try service.store.checkWritable() } catch {
        if error.isUnreachable { return unreachable }
        let since = ISO8601DateFormatter().string(from: problem.since)
        return .json(
          503, Data(#"{"status":"unavailable","state":"not writable","since":"\#(since)"}"#.utf8))
      }
    }
    let now = Date()
    guard let gauges = currentGauges(now: now) else { return unreachable }
    // A loop that stopped (the sender, say) stays stopped until a restart, which this asks for.
    let stopped = stoppedLoops()
    if !stopped.isEmpty {
      return .json(
        503,
        Data(
          #"{"status":"unavailable","state":"loop stopped","loops":"\#(stopped.joined(separator: ","))"}"#
            .utf8))
    }
    // Requests that need a hung source's facts wait undecided; it clears by itself once the
    // source answers in time again.
    let hung = service.hungFactSources
    if !hung.isEmpty {
      var body = JSONTextWriter(escapesSlashes: false, capacity: 128)
      body.beginObject()
      body.key("facts")
      body.string("hung")
      body.key("sources")
      body.beginArray()
      for source in hung { body.string(source) }
      body.endArray()
      body.key("state")
      body.string("ok")
      body.key("status")
      body.string("unavailable")
      body.endObject()
      return .json(503, body.data)
    }
    // Overdue replies and undecided requests are told, not failed on: restarting the service
    // would mend neither. A refused policy file is told too, as degraded: an earlier version
    // decides meanwhile, and a restart would not mend it either. So is a fact source whose
    // lookups fail (its file missing or refused): the requests that need it wait, and the
    // log says why.
    let refused = service.policies.refusedFiles()
    let failing = service.failingFactSources
    var body = JSONTextWriter(escapesSlashes: false, capacity: 256)
    body.beginObject()
    // A pause after a credentials problem holds an app's replies back on every instance.
    body.field(
      "status", refused.isEmpty && failing.isEmpty && gauges.paused.isEmpty ? "ok" : "degraded")
    body.field("state", "ok")
    body.field("role", isLeader() ? "leader" : "follower")
    body.field("outboxWaiting", gauges.waiting)
    body.field("outboxOverdue", gauges.overdue)
    body.field("undecided", gauges.undecided)
    body.field("outboxDueLagSeconds", Int(gauges.dueLag(now: now)))
    // Said while it is on, so a development setting left in production is seen.
    let unsigned = service.unsignedEnvironments.map(\.rawValue)
    if !unsigned.isEmpty { body.field("unsignedAccepted", unsigned) }
    if !gauges.paused.isEmpty {
      body.field("sending", "paused")
      body.field("pausedApps", gauges.paused.map(\.description))
    }
    if !failing.isEmpty {
      body.field("facts", "failing")
      body.field("failingSources", failing)
    }
    if !refused.isEmpty {
      body.field("policies", "refused")
      body.key("refusedPolicies")
      body.beginArray()
      for file in refused {
        body.beginObject()
        body.field("path", file.path)
        body.field("problem", file.problem)
        body.field("since", ISO8601DateFormatter().string(from: file.since))
        body.endObject()
      }
      body.endArray()
    }
    body.endObject()
    return .json(200, body.data)
  }

  /// The answer as sent, with its `X-Request-Id`, the id its log lines carry.
  static func response(_ answer: WebhookAnswer) -> HTTPResponse {
    var response = HTTPResponse.json(answer.status, answer.body)
    if let id = answer.correlationId { response.headers.append(("X-Request-Id", id)) }
    return response
  }

  /// Reports a request answered without the pipeline, its method and path quoted cut short:
  /// whoever can connect chooses them.
  private func refused(_ request: HTTPRequest, _ status: Int, _ reason: String) {
    service.report(
      .httpRefused(
        status: status, reason: "\(QuotedText.cut(request.method, to: 16)) \(reason)",
        path: QuotedText.cut(request.path, to: 200), client: request.client))
  }

  private func notAllowed(_ request: HTTPRequest, _ allowed: String) -> HTTPResponse {
    refused(request, 405, "not allowed (allowed: \(allowed))")
    var response = HTTPResponse.text(405, "method not allowed\n")
    response.headers.append(("Allow", allowed))
    return response
  }
}
