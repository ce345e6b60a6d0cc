import Testing

@testable import ReckonHTTP

/// The connection state machine, driven by hand: bytes in, times in, actions out.
struct HTTPConnectionTests {
  static let get = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)

  static func connection(readTimeout: Double = 10, now: Double = 100) -> HTTPConnection {
    HTTPConnection(limits: .init(), readTimeout: readTimeout, now: now)
  }

  static func next(
    _ connection: inout HTTPConnection, at now: Double = 100, stopping: Bool = false,
    evicted: Bool = false
  ) -> HTTPConnection.Action {
    connection.nextAction(now: now, isStopping: stopping, isEvicted: { evicted })
  }

  static func path(of action: HTTPConnection.Action) -> String? {
    guard case .answer(let request) = action else { return nil }
    return request.path
  }

  @Test func aNewConnectionWaitsForBytes() {
    var connection = Self.connection()
    #expect(Self.next(&connection) == .read(gatherFirst: false))
    #expect(!connection.isBusy)
  }

  @Test func aCompleteRequestIsHandedOutAndItsAnswerLeavesTheConnectionIdle() {
    var connection = Self.connection()
    let claimsSlot = connection.received(Self.get)
    #expect(claimsSlot)
    #expect(connection.isBusy)
    #expect(Self.path(of: Self.next(&connection)) == "/healthz")
    let afterAnswer = connection.answered(now: 101)
    #expect(afterAnswer == .idle)
    #expect(!connection.isBusy)
    #expect(Self.next(&connection, at: 101) == .read(gatherFirst: false))
  }

  @Test func onlyTheFirstBytesOfARequestClaimTheSlot() {
    var connection = Self.connection()
    let firstClaims = connection.received(Array("GET / HT".utf8))
    #expect(firstClaims)
    let restClaims = connection.received(Array("TP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(!restClaims)
    _ = Self.next(&connection)
    _ = connection.answered(now: 100)
    let nextRequestClaims = connection.received(Self.get)
    #expect(nextRequestClaims)
  }

  @Test func anEmptyReadClaimsNothing() {
    var connection = Self.connection()
    let emptyClaims = connection.received([])
    #expect(!emptyClaims)
    #expect(!connection.isBusy)
  }

  @Test func pipelinedRequestsAreHandedOutInTurnAndKeepTheConnectionBusy() {
    var connection = Self.connection()
    _ = connection.received(Self.get + Array("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(Self.path(of: Self.next(&connection)) == "/healthz")
    let afterFirst = connection.answered(now: 100)
    #expect(afterFirst == .nextRequestUnderway)
    #expect(connection.isBusy)
    #expect(Self.path(of: Self.next(&connection)) == "/metrics")
    let afterSecond = connection.answered(now: 100)
    #expect(afterSecond == .idle)
  }

  @Test func malformedBytesAreRejectedWithTheParsersError() {
    var connection = Self.connection()
    _ = connection.received(Array("NOT HTTP\r\n\r\n".utf8))
    guard case .reject(let error) = Self.next(&connection) else {
      Issue.record("not rejected")
      return
    }
    #expect(error.status == 400)
  }

  @Test(arguments: [(false, false), (true, true)])
  func theReadTimeoutClosesAndSays408OnlyWhenARequestIsUnderway(
    partial: Bool, requestUnderway: Bool
  ) {
    var connection = Self.connection(readTimeout: 10, now: 100)
    if partial { _ = connection.received(Array("GET / HTTP/1.1\r\n".utf8)) }
    #expect(Self.next(&connection, at: 110) != .timeOut(requestUnderway: requestUnderway))
    #expect(Self.next(&connection, at: 110.5) == .timeOut(requestUnderway: requestUnderway))
  }

  @Test func theReadTimeoutCountsFromTheLastAnswer() {
    var connection = Self.connection(readTimeout: 10, now: 100)
    _ = connection.received(Self.get)
    _ = Self.next(&connection, at: 109)
    _ = connection.answered(now: 109)
    #expect(Self.next(&connection, at: 115) == .read(gatherFirst: false))
    #expect(Self.next(&connection, at: 119.5) == .timeOut(requestUnderway: false))
  }

  @Test func aClientWaitingToSendItsBodyIsToldToContinueOnce() {
    var connection = Self.connection()
    _ = connection.received(
      Array(
        "POST /n HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n".utf8))
    #expect(Self.next(&connection) == .sendContinue)
    #expect(Self.next(&connection) == .read(gatherFirst: false))
    _ = connection.received(Array("body".utf8))
    #expect(Self.path(of: Self.next(&connection)) == "/n")
  }

  @Test func aRequestTricklingInPausesBeforeEachReadAndAWholeSegmentDoesNot() {
    var connection = Self.connection()
    _ = connection.received(Array("GET / ".utf8))
    #expect(Self.next(&connection) == .read(gatherFirst: true))
    _ = connection.received(Array(repeating: UInt8(ascii: "a"), count: HTTPConnection.smallRead))
    #expect(Self.next(&connection) == .read(gatherFirst: false))
  }

  @Test func stoppingClosesAnIdleConnectionButLetsARequestUnderwayFinish() {
    var idle = Self.connection()
    #expect(Self.next(&idle, stopping: true) == .close)
    var reading = Self.connection()
    _ = reading.received(Array("GET / HTTP/1.1\r\n".utf8))
    #expect(Self.next(&reading, stopping: true) == .read(gatherFirst: true))
  }

  /// A connection given away to make room closes while it waits for a request and while it
  /// reads one (a slow head or body is what a flood holds slots with); a complete request is
  /// handed out without asking, for the server to claim the slot before answering it.
  @Test func anEvictedConnectionClosesUntilItsRequestIsComplete() {
    var idle = Self.connection()
    #expect(Self.next(&idle, evicted: true) == .close)
    var slowHead = Self.connection()
    _ = slowHead.received(Array("GET / HTTP/1.1\r\n".utf8))
    #expect(Self.next(&slowHead, evicted: true) == .close)
    var slowBody = Self.connection()
    _ = slowBody.received(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbo".utf8))
    #expect(Self.next(&slowBody, evicted: true) == .close)
    var complete = Self.connection()
    _ = complete.received(Self.get)
    var asked = false
    let action = complete.nextAction(
      now: 100, isStopping: false,
      isEvicted: {
        asked = true
        return true
      })
    #expect(Self.path(of: action) == "/healthz")
    #expect(!asked)
  }
}
