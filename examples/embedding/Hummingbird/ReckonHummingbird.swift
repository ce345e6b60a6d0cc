// Mounting Reckon in a Hummingbird 2 app: Apple's webhook route, `/healthz`, and Reckon's loops
// as a service of the app's service group, stopped on its graceful shutdown. Add
// `.product(name: "ReckonEngine", package: "Reckon")`, "ReckonHTTP" and "ReckonStateSQLite" to
// your app's target and copy this file. In this package it compiles against a stand-in of
// Hummingbird's types (examples/embedding/StandIns/Hummingbird), so CI sees it drift from
// Reckon's API.

import Foundation
import ReckonEngine
import ReckonHTTP
import ReckonStateSQLite

#if canImport(Hummingbird)
  import Hummingbird
  import ServiceLifecycle
#else
  import HummingbirdStandIn
#endif

/// Serves Reckon on `port` until SIGTERM, then stops its loops after a send in flight finished.
public func serveReckon(port: Int = 8080) async throws {
  // Loaded and checked once, at start; a policy that does not check stops the start.
  let reckon = try ReckonService(
    configuration: try ReckonConfiguration.load(path: "reckon.json"),
    state: SQLiteStateOpener(), transport: CurlHTTPClient(),
    warn: { print("warning: \($0)") },
    events: { event in
      let request = RequestLogContext.current.map { " [\($0.id)]" } ?? ""
      print("\(event.level) \(event.name)\(request): \(event)")
    })
  let requestId = HTTPField.Name("X-Request-Id")!
  let router = Router()
  // Hand Reckon the raw bytes and answer exactly what it says (200 once recorded, 500 if not,
  // so Apple retries; 4xx if it does not verify).
  router.post("apple/notifications") { request, _ -> Response in
    let buffer = try await request.body.collect(upTo: 256 * 1024)
    let answer = await reckon.answer(
      body: Data(buffer.readableBytesView), requestId: request.headers[requestId])
    var headers: HTTPFields = [.contentType: "application/json"]
    headers[requestId] = answer.correlationId
    return Response(
      status: .init(code: answer.status), headers: headers,
      body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
  }
  // A loop that stopped on an error stays stopped until a restart, which a 503 asks for.
  router.get("healthz") { _, _ -> Response in
    let stopped = reckon.stoppedLoops
    let body =
      stopped.isEmpty
      ? #"{"status":"ok"}"#
      : #"{"status":"unavailable","loops":"\#(stopped.joined(separator: ","))"}"#
    return Response(
      status: .init(code: stopped.isEmpty ? 200 : 503),
      headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(bytes: Data(body.utf8))))
  }
  let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
    services: [ReckonLoopsService(reckon: reckon)])
  try await app.runService()
}

/// Reckon's loops (sender, retries, policy reloads, pruning) as a service: one call, `run()`,
/// cancelled on the group's graceful shutdown, which it outlives only until a send in flight
/// finished.
struct ReckonLoopsService: Service {
  let reckon: ReckonService

  func run() async throws {
    let reckon = reckon
    try await cancelWhenGracefulShutdown {
      // One sender per state database: where another process already sends, this one's
      // sender stands by and takes over when it stops; its other loops run all the while.
      try await reckon.run(standby: true)
    }
  }
}
