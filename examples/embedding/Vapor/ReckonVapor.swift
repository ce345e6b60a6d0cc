// Mounting Reckon in a Vapor 4 app (4.100 or later, whose lifecycle handlers have async
// methods): Apple's webhook route, `/healthz`, and Reckon's loops from boot to shutdown. Add
// `.product(name: "ReckonEngine", package: "Reckon")`, "ReckonHTTP" and "ReckonStateSQLite" to
// your app's target and copy this file. In this package it compiles against a stand-in of
// Vapor's types (examples/embedding/StandIns/Vapor), so CI sees it drift from Reckon's API.

import Foundation
import ReckonEngine
import ReckonHTTP
import ReckonStateSQLite

#if canImport(Vapor)
  import Vapor
#else
  import VaporStandIn
#endif

/// Builds the service from reckon.json and mounts it on `app`.
public func mountReckon(on app: Application) throws {
  // Loaded and checked once, at start: apps, policies (one that does not check stops the
  // start), fact sources, the state database and, with `appStore` configured, the sender.
  let reckon = try ReckonService(
    configuration: try ReckonConfiguration.load(path: "reckon.json"),
    state: SQLiteStateOpener(), transport: CurlHTTPClient(),
    warn: { app.logger.warning("\($0)") },
    // Each event says how much it matters; `RequestLogContext.current` names the request.
    events: { event in
      let level: Logger.Level =
        event.level == "error" ? .error : event.level == "warning" ? .warning : .info
      let request = RequestLogContext.current.map { " [\($0.id)]" } ?? ""
      app.logger.log(level: level, "\(event.name)\(request): \(event)")
    })
  app.lifecycle.use(ReckonLoops(reckon: reckon))

  // Apple posts {"signedPayload": "..."}: hand Reckon the raw bytes, never a decoded model, and
  // answer exactly what it says (200 once recorded, 500 if not, so Apple retries; 4xx if it
  // does not verify).
  app.on(.POST, "apple", "notifications", body: .collect(maxSize: "256kb")) { request async in
    let answer = await reckon.answer(
      body: request.body.data.map { Data(buffer: $0) } ?? Data(),
      from: request.remoteAddress?.description,
      requestId: request.headers.first(name: "X-Request-Id"))
    return Response(
      status: HTTPResponseStatus(statusCode: answer.status),
      headers: [
        "Content-Type": "application/json", "X-Request-Id": answer.correlationId ?? "",
      ],
      body: .init(data: answer.body))
  }

  // A loop that stopped on an error stays stopped until a restart, which a 503 asks for.
  app.get("healthz") { _ async in
    let stopped = reckon.stoppedLoops
    return Response(
      status: HTTPResponseStatus(statusCode: stopped.isEmpty ? 200 : 503),
      headers: ["Content-Type": "application/json"],
      body: .init(
        string: stopped.isEmpty
          ? #"{"status":"ok"}"#
          : #"{"status":"unavailable","loops":"\#(stopped.joined(separator: ","))"}"#))
  }
}

/// Reckon's loops (sender, retries, policy reloads, pruning) from boot to shutdown: one call,
/// `run()`, which returns once cancelled, after a send in flight finished.
final class ReckonLoops: LifecycleHandler, @unchecked Sendable {
  let reckon: ReckonService
  private let lock = NSLock()
  private var task: Task<Void, Never>?

  init(reckon: ReckonService) {
    self.reckon = reckon
  }

  func didBootAsync(_ application: Application) async throws {
    let reckon = reckon
    let logger = application.logger
    let task = Task {
      // One sender per state database: where another process already sends, this one's
      // sender stands by and takes over when it stops; its other loops run all the while.
      do { try await reckon.run(standby: true) } catch {
        logger.error("Reckon's loops did not start: \(error)")
      }
    }
    lock.withLock { self.task = task }
  }

  func shutdownAsync(_ application: Application) async {
    let task = lock.withLock { self.task }
    task?.cancel()
    // run() returns once its loops stopped and the state file holds every commit.
    await task?.value
  }
}
