// Mounting Reckon on a Vapor route. NOT compiled with this package: it needs Vapor, which Reckon
// does not depend on. Add `.product(name: "ReckonEngine", package: "Reckon")` to your app's
// target and copy what you need. Hummingbird is the same three lines: read the body, call
// `handleNotification(body:)`, answer with its status and body.

import Foundation
import ReckonEngine
import Vapor

func routes(_ app: Application) throws {
  // Load and check reckon.json once at start: apps, policies (a policy that does not check stops
  // the start), fact sources, the state database and, with `appStore` configured, the sender.
  let configuration = try ReckonConfiguration.load(path: "reckon.json")
  let reckon = try ReckonService(
    configuration: configuration,
    warn: { app.logger.warning("\($0)") },
    events: { app.logger.info("\($0)") })

  // The sender delivers queued replies to Apple, paced and retried until each deadline. One
  // sender per state database: where another process (or `reckon send`) already sends,
  // `runSender` throws SenderLockError and this one stands by, taking over if that one stops.
  // runSender returns at once when appStore is not configured (no sender), so the loop ends
  // there; only another sender holding the lock is worth waiting out, any other error is logged.
  Task {
    while true {
      do {
        try await reckon.runSender { false }
        return
      } catch SenderLockError.heldByAnotherSender {
        try await Task.sleep(for: .seconds(30))
      } catch {
        app.logger.error("the sender stopped: \(error)")
        return
      }
    }
  }
  // Requests a fact source failed on are kept; decide them later.
  Task {
    while true {
      try await Task.sleep(for: .seconds(30))
      await reckon.retryUndecided()
    }
  }

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
