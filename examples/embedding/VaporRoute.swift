// Mounting Reckon on a Vapor route. NOT compiled with this package: it needs Vapor (4.100 or
// later, whose lifecycle handlers have async methods), which Reckon does not depend on. Add
// `.product(name: "ReckonEngine", package: "Reckon")` and `.product(name: "ReckonHTTP", ...)` to your app's target and copy what you
// need. Hummingbird is the same three lines: read the body, call `handleNotification(body:)`,
// answer with its status and body.

import Foundation
import ReckonEngine
import ReckonHTTP
import Synchronization
import Vapor

func routes(_ app: Application) throws {
  // Load and check reckon.json once at start: apps, policies (a policy that does not check stops
  // the start), fact sources, the state database and, with `appStore` configured, the sender.
  let configuration = try ReckonConfiguration.load(path: "reckon.json")
  let reckon = try ReckonService(
    configuration: configuration, transport: CurlHTTPClient(),
    warn: { app.logger.warning("\($0)") },
    // Each event says how much it matters: a decision on a failed fact source is a warning.
    events: { event in
      let level: Logger.Level =
        event.level == "error" ? .error : event.level == "warning" ? .warning : .info
      app.logger.log(level: level, "\(event)")
    })
  // The loops start when the application has booted and stop, cleanly, when it shuts down.
  app.lifecycle.use(ReckonLoops(reckon: reckon, logger: app.logger))

  // Apple posts {"signedPayload": "..."}; answer exactly what Reckon says: 200 once the
  // notification is durably recorded, 500 if it could not be (Apple retries), 4xx if it failed
  // verification. Let Reckon see the raw bytes, not a decoded model.
  app.on(.POST, "apple", "notifications", body: .collect(maxSize: "256kb")) { request async in
    let body = request.body.data.map { Data(buffer: $0) } ?? Data()
    let (status, answer) = await reckon.handleNotification(body: body)
    return Response(
      status: HTTPResponseStatus(statusCode: status),
      headers: ["Content-Type": "application/json"], body: .init(data: answer))
  }
}

/// What `reckon serve` runs beside the route: the sender, the retry of undecided requests and
/// policy reloads, started when the server has booted and stopped before it exits.
final class ReckonLoops: LifecycleHandler, Sendable {
  let reckon: ReckonService
  let logger: Logger
  private let stopping = Mutex(false)
  private let tasks = Mutex<[Task<Void, Never>]>([])

  init(reckon: ReckonService, logger: Logger) {
    self.reckon = reckon
    self.logger = logger
  }

  func didBootAsync(_ app: Application) async throws {
    let isStopped: @Sendable () -> Bool = { [self] in stopping.withLock { $0 } }
    let reckon = reckon
    let logger = logger
    let started = [
      // The sender delivers queued replies to Apple, paced and retried until each deadline. One
      // sender per state database: where another process (or `reckon send`) already sends,
      // `runSender` throws SenderLockError and this one stands by, taking over if that one
      // stops. It returns at once when appStore is not configured (no sender).
      Task {
        while !isStopped() {
          do {
            try await reckon.runSender(isStopped: isStopped)
            return
          } catch SenderLockError.heldByAnotherSender {
            for _ in 0..<30 where !isStopped() { try? await Task.sleep(for: .seconds(1)) }
          } catch {
            logger.error("the sender stopped: \(error)")
            return
          }
        }
      },
      // Requests a fact source failed on (or a crash left) are kept; decide them now and later.
      Task {
        while !isStopped() {
          // At start-up again until nothing is left (a call takes at most 100), then every 30 s.
          if await reckon.retryUndecided() > 0 { continue }
          for _ in 0..<30 where !isStopped() { try? await Task.sleep(for: .seconds(1)) }
        }
      },
      // An edited policy goes live if it checks; one that does not is refused and logged.
      Task {
        while !isStopped() {
          reckon.reloadPolicies()  // its events go to the `events` closure above
          try? await Task.sleep(for: .seconds(1))
        }
      },
    ]
    tasks.withLock { $0 = started }
    // With state.keepDays, prune a minute after start and then daily, on a thread of its own:
    // a prune blocks while it runs. Omitted here; see docs/embedding.md, "What else to run".
  }

  func shutdownAsync(_ app: Application) async {
    // Not cancelled: each loop sees the flag within a second (the sender within its 250 ms
    // poll), so a send or a decision in flight finishes, and what is not sent yet stays queued
    // for the next start. A cancelled send would be cut off and recorded as failed.
    stopping.withLock { $0 = true }
    for task in tasks.withLock({ $0 }) { await task.value }
    // So the state file alone holds every commit (a copy of it is then complete).
    _ = try? reckon.store.checkpoint()
  }
}
