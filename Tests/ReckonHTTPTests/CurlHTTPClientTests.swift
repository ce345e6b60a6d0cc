import Foundation
import ReckonSupport
import Testing

@testable import ReckonHTTP

@Suite("HTTP transport over libcurl")
struct CurlHTTPClientTests {
  private func url(_ port: Int, _ path: String = "/x") -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  /// Why `request` to a server that never answers failed, and after how many milliseconds by
  /// curl's own clock (e.g. "Operation timed out after 1001 milliseconds with 0 bytes
  /// received"): the wall clock also counts waiting for a cooperative thread to resume the
  /// test, which other suites running in parallel can delay.
  private func failure(_ client: CurlHTTPClient, _ request: HTTPClientRequest) async -> (
    String, Int?
  ) {
    do {
      let response = try await client.perform(request)
      Issue.record("a silent server answered \(response.status)")
      return ("", nil)
    } catch {
      let reason = error.description
      let after = reason.firstRange(of: /after (\d+) milliseconds/).map {
        Int(reason[$0].split(separator: " ")[1]) ?? 0
      }
      return (reason, after)
    }
  }

  @Test func putsTheBodyAndReadsStatusHeadersAndBody() async throws {
    let listener = try LoopbackListener { request in
      request.method == "PUT" && request.path == "/x"
        && request.header("content-type") == "application/json"
        ? LoopbackListener.response(
          status: 429, headers: ["Retry-After: 7"], body: Data(#"{"errorCode":1}"#.utf8))
        : LoopbackListener.response(status: 400)
    }
    defer { listener.stop() }
    let client = CurlHTTPClient(timeout: 5)
    let response = try await client.perform(
      HTTPClientRequest(
        method: "PUT", url: url(listener.port), headers: [("Content-Type", "application/json")],
        body: Data("{}".utf8)))
    #expect(response.status == 429)
    #expect(response.header("retry-after") == "7")
    #expect(response.body == Data(#"{"errorCode":1}"#.utf8))
  }

  @Test func sequentialRequestsReuseOneKeepAliveConnection() async throws {
    let listener = try LoopbackListener { _ in LoopbackListener.response(status: 200) }
    defer { listener.stop() }
    let client = CurlHTTPClient(timeout: 5, maximumConnections: 4)
    for _ in 0..<5 {
      let response = try await client.perform(
        HTTPClientRequest(method: "POST", url: url(listener.port), body: Data("{}".utf8)))
      #expect(response.status == 200)
    }
    #expect(listener.connectionCount == 1)
  }

  @Test func aBodyOverTheCapIsRefused() async throws {
    let big = Data(repeating: 65, count: 5_000)
    // With a Content-Length curl refuses before reading; without one (read to close) the
    // write callback stops at the cap.
    let listener = try LoopbackListener { request in
      request.path == "/sized"
        ? LoopbackListener.response(status: 200, body: big)
        : (Data("HTTP/1.1 200 X\r\nConnection: close\r\n\r\n".utf8) + big, true)
    }
    defer { listener.stop() }
    let client = CurlHTTPClient(timeout: 5, maximumResponseBytes: 1_000)
    for path in ["/sized", "/unsized"] {
      await #expect(throws: HTTPTransportError.responseTooLarge(limit: 1_000)) {
        try await client.perform(HTTPClientRequest(method: "GET", url: url(listener.port, path)))
      }
    }
    // The handle stays usable after an aborted transfer.
    let small = try LoopbackListener { _ in LoopbackListener.response(status: 204) }
    defer { small.stop() }
    #expect(
      try await client.perform(HTTPClientRequest(method: "GET", url: url(small.port))).status == 204
    )
  }

  @Test func aRefusedConnectionIsAFailureBeforeAnythingWasSent() async throws {
    // Bound but not listening: connecting is refused, and no one else can take the port.
    let (fd, port) = try LoopbackListener.boundSocket()
    defer { close(fd) }
    await #expect {
      try await CurlHTTPClient(timeout: 5).perform(HTTPClientRequest(method: "GET", url: url(port)))
    } throws: { error in
      guard case .notSent(let why) = error as? HTTPTransportError else { return false }
      return why.contains("onnect")
    }
  }

  @Test func aServerThatNeverAnswersTimesOut() async throws {
    let listener = try LoopbackListener { _ in nil }
    defer { listener.stop() }
    let start = Date()
    let (reason, after) = await failure(
      CurlHTTPClient(timeout: 1),
      HTTPClientRequest(method: "PUT", url: url(listener.port), body: Data("{}".utf8)))
    #expect(reason.contains("timed out"), "\(reason)")
    #expect(after.map { $0 >= 900 && $0 < 3_000 } == true, "\(reason)")
    #expect(Date().timeIntervalSince(start) >= 0.9)
    #expect(Date().timeIntervalSince(start) < 60)
  }

  @Test func aRequestWithADeadlineSoonerThanTheTimeoutIsCutOffAtIt() async throws {
    let listener = try LoopbackListener { _ in nil }
    defer { listener.stop() }
    let (reason, after) = await failure(
      CurlHTTPClient(timeout: 30),
      HTTPClientRequest(
        method: "PUT", url: url(listener.port), body: Data("{}".utf8),
        deadline: Date().addingTimeInterval(1)))
    #expect(reason.contains("timed out"), "\(reason)")
    #expect(after.map { $0 >= 800 && $0 < 3_000 } == true, "\(reason)")
  }

  @Test func aRequestWhoseDeadlineHasPassedIsNotStarted() async throws {
    let listener = try LoopbackListener { _ in LoopbackListener.response(status: 202) }
    defer { listener.stop() }
    await #expect(throws: HTTPTransportError.notSent("not started: its deadline had passed")) {
      try await CurlHTTPClient(timeout: 5).perform(
        HTTPClientRequest(
          method: "PUT", url: url(listener.port), body: Data("{}".utf8),
          deadline: Date().addingTimeInterval(-1)))
    }
    #expect(listener.connectionCount == 0)
  }

  @Test func redirectsAreNotFollowed() async throws {
    let listener = try LoopbackListener { request in
      request.path == "/moved"
        ? LoopbackListener.response(status: 302, headers: ["Location: /elsewhere"])
        : LoopbackListener.response(status: 200)
    }
    defer { listener.stop() }
    let response = try await CurlHTTPClient(timeout: 5).perform(
      HTTPClientRequest(method: "GET", url: url(listener.port, "/moved")))
    #expect(response.status == 302)
    #expect(listener.connectionCount == 1)
  }

  @Test func onlyHTTPAndHTTPSAreSpoken() async throws {
    await #expect(throws: HTTPTransportError.self) {
      try await CurlHTTPClient(timeout: 2).perform(
        HTTPClientRequest(method: "GET", url: URL(fileURLWithPath: "/etc/hostname")))
    }
  }

  @Test func cancellingTheCallerAbortsTheTransfer() async throws {
    let listener = try LoopbackListener { _ in nil }
    defer { listener.stop() }
    // The silent server would hold the transfer until the client's 120 s timeout; cancelling
    // must end it long before (within about a second when idle; the bound allows a loaded CI).
    let client = CurlHTTPClient(timeout: 120)
    let request = HTTPClientRequest(method: "GET", url: url(listener.port))
    let task = Task { try await client.perform(request) }
    try await Task.sleep(nanoseconds: 200_000_000)
    let start = Date()
    task.cancel()
    await #expect(throws: HTTPTransportError.cancelled) { try await task.value }
    #expect(Date().timeIntervalSince(start) < 60)
  }
}
