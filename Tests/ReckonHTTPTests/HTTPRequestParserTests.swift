import Foundation
import ReckonHTTP
import Testing

@Suite struct HTTPRequestParserTests {
  func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) throws(HTTPParseError)
    -> [HTTPRequest]
  {
    var parser = HTTPRequestParser(limits: limits)
    parser.feed(Array(text.utf8))
    var requests: [HTTPRequest] = []
    while let request = try parser.next() { requests.append(request) }
    return requests
  }

  @Test func aRequestWithAContentLengthBodyParses() throws {
    let requests = try parse("PUT /a?b=c HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    let request = try #require(requests.first)
    #expect(request.method == "PUT")
    #expect(request.path == "/a")
    #expect(request.header("content-length") == "5")
    #expect(request.body == Data("hello".utf8))
    #expect(request.keepAlive)
  }

  @Test func bytesFedOneAtATimeGiveTheSameRequest() throws {
    var parser = HTTPRequestParser()
    var found: HTTPRequest?
    for byte in "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok".utf8 {
      #expect(found == nil)
      parser.feed([byte])
      found = try parser.next()
    }
    #expect(found?.body == Data("ok".utf8))
  }

  /// The search for the end of the head goes on from where it stopped, so an end split across
  /// reads at any point is still found, and asking again before more bytes come is harmless.
  @Test(arguments: 1...6)
  func aHeadEndSplitAcrossReadsIsFound(chunk: Int) throws {
    let bytes = Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    var parser = HTTPRequestParser()
    var paths: [String] = []
    var offset = 0
    while offset < bytes.count {
      parser.feed(bytes[offset..<min(bytes.count, offset + chunk)])
      offset += chunk
      while let request = try parser.next() { paths.append(request.path) }
      #expect(try parser.next() == nil)
    }
    #expect(paths == ["/a", "/b"])
  }

  @Test(arguments: [
    ("HTTP/1.1", "Connection: keep-alive, close\r\n", false),
    ("HTTP/1.1", "Connection: Keep-Alive\r\nConnection: Close\r\n", false),
    ("HTTP/1.1", "Connection: upgrade\r\n", true),
    ("HTTP/1.0", "Connection: TE, Keep-Alive\r\n", true),
    ("HTTP/1.0", "Connection: keep-alive,close\r\n", false),
    ("HTTP/1.0", "", false),
  ])
  func connectionIsReadAsAListInWhichCloseWins(version: String, fields: String, keepAlive: Bool)
    throws
  {
    let request = try #require(try parse("GET / \(version)\r\nHost: x\r\n\(fields)\r\n").first)
    #expect(request.keepAlive == keepAlive)
  }

  @Test func pipelinedKeepAliveRequestsComeOutInOrder() throws {
    let requests = try parse(
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(requests.map(\.path) == ["/1", "/2"])
    #expect(requests.map(\.keepAlive) == [true, false])
  }

  @Test func headerNamesMatchInAnyCaseAndOnlyWhole() throws {
    let request = try #require(
      try parse(
        "POST /x HTTP/1.1\r\nHost: x\r\ncOnTeNt-LeNgTh: 2\r\nX-Accent: yes\r\nContent-Lengthy: 9\r\n\r\nok"
      ).first)
    #expect(request.body == Data("ok".utf8))
    #expect(request.header("CONTENT-LENGTH") == "2")
    #expect(request.header("x-accent") == "yes")
    #expect(request.header("X-ACCENT") == "yes")
    #expect(request.header("Content-Len") == nil)
    #expect(request.header("content_length") == nil)
  }

  @Test func aHeadExpectingContinueAwaitsItUntilItsBodyArrives() throws {
    var parser = HTTPRequestParser()
    parser.feed(
      Array("PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8))
    #expect(try parser.next() == nil)
    #expect(parser.awaitsContinue)
    parser.feed(Array("ok".utf8))
    #expect(try parser.next()?.body == Data("ok".utf8))
    #expect(!parser.awaitsContinue)
    parser.feed(Array("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n".utf8))
    #expect(try parser.next() == nil)
    #expect(!parser.awaitsContinue)
  }

  @Test func anHTTP10ExpectationIsIgnored() throws {
    var parser = HTTPRequestParser()
    parser.feed(
      Array("PUT / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
    #expect(try parser.next() == nil)
    #expect(!parser.awaitsContinue)
  }

  @Test func http10ClosesUnlessAskedToKeepAlive() throws {
    #expect(try parse("GET / HTTP/1.0\r\n\r\n").first?.keepAlive == false)
  }

  @Test func headersOverTheByteLimitAre431() {
    let error = #expect(throws: HTTPParseError.self) {
      try parse(
        "GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 200))\r\n\r\n",
        limits: .init(maximumHeaderBytes: 100))
    }
    #expect(error?.status == 431)
  }

  @Test func unfinishedHeadersOverTheLimitAre431BeforeTheyEnd() {
    let error = #expect(throws: HTTPParseError.self) {
      try parse(
        "GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 200))",
        limits: .init(maximumHeaderBytes: 100))
    }
    #expect(error?.status == 431)
  }

  @Test func tooManyHeaderFieldsAre431() {
    let fields = (0..<5).map { "H\($0): v\r\n" }.joined()
    let error = #expect(throws: HTTPParseError.self) {
      try parse("GET / HTTP/1.1\r\n\(fields)\r\n", limits: .init(maximumHeaderCount: 4))
    }
    #expect(error?.status == 431)
  }

  @Test func aBodyOverTheLimitIs413FromItsContentLength() {
    let error = #expect(throws: HTTPParseError.self) {
      try parse("PUT / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", limits: .init(maximumBodyBytes: 10))
    }
    #expect(error == .bodyTooLarge(limit: 10))
  }

  @Test(arguments: [
    "GARBAGE\r\n\r\n", "get / HTTP/1.1\r\n\r\n", "GET / HTTP/2\r\n\r\n",
    "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
    "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", "PUT / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
    "PUT / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    // A CR, LF or NUL in a value, a name that is no token, a target with a control character:
    // a proxy ending lines at a bare LF would frame these bytes otherwise than Reckon.
    "POST / HTTP/1.1\r\nX-A: a\nContent-Length: 42\r\n\r\n",
    "POST / HTTP/1.1\r\nX-A: a\rb\r\n\r\n", "GET / HTTP/1.1\r\nX-A: a\u{0}b\r\n\r\n",
    "GET / HTTP/1.1\r\nX-A: é\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nX(A): b\r\n\r\n",
    "GET / HTTP/1.1\r\nÉtat: b\r\n\r\n", "GET /a\u{1}b HTTP/1.1\r\n\r\n",
  ])
  func malformedRequestsAre400(text: String) {
    let error = #expect(throws: HTTPParseError.self) { try parse(text) }
    #expect(error?.status == 400)
  }

  // All-ASCII heads are read from their bytes, others as text: a non-ASCII field added to each
  // request must change nothing else about how it is read or refused.
  @Test(arguments: [
    "PUT /a?b=c HTTP/1.1\r\nHost:  \t x y \t\r\nContent-Length: 2\r\n\r\nok",
    "GET * HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", "M-SEARCH / HTTP/1.1\r\nHost: x\r\n\r\n",
    "GARBAGE\r\n\r\n", "get / HTTP/1.1\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n",
    "GET x HTTP/1.1\r\n\r\n",
    "GET / HTTP/1.1\r\nNoColon\r\n\r\n", "GET / HTTP/1.1\r\n: empty name\r\n\r\n",
    "GET / HTTP/1.1\r\nBad\tName: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nB: 2\r\nC: 3\r\n\r\n",
  ])
  func asciiAndOtherHeadsAreReadByTheSameRules(text: String) throws {
    let limits = HTTPRequestParser.Limits(maximumHeaderCount: 3)
    let marker = "X-Accent: é ü\r\n"
    let headEnd = text.range(of: "\r\n\r\n")!
    let withMarker: String
    if let firstLineEnd = text.range(of: "\r\n"), firstLineEnd.lowerBound < headEnd.lowerBound {
      withMarker = text.replacingCharacters(
        in: firstLineEnd.upperBound..<firstLineEnd.upperBound, with: marker)
    } else {
      withMarker = text.replacingCharacters(
        in: headEnd.lowerBound..<headEnd.lowerBound, with: "\r\n" + marker.dropLast())
    }
    let plain = Result { () throws(HTTPParseError) in try parse(text, limits: limits) }
    let other = Result { () throws(HTTPParseError) in try parse(withMarker, limits: limits) }
    switch (plain, other) {
    case (.success(let requests), .success(let marked)):
      var expected = try #require(requests.first)
      expected.headers.insert(("X-Accent", "é ü"), at: 0)
      #expect(marked.first == expected)
    case (.failure(let error), .failure(let markedError)):
      // The marker is one more field, so only the field count may differ.
      if case .headersTooLarge = error {
        #expect(markedError.status == 431)
      } else {
        #expect(markedError.status == error.status)
      }
    default:
      // The fourth field pushes a three-field request over the limit.
      #expect(text.hasPrefix("GET / HTTP/1.1\r\nHost: x\r\nB: 2"), "\(plain) but \(other)")
    }
  }

  @Test func fieldValuesLoseOnlySpacesAndTabsAroundThem() throws {
    let request = try #require(
      try parse("GET / HTTP/1.1\r\nHost: x\r\nX:\t a\tb  \t\r\nY:\r\n\r\n").first)
    #expect(request.header("X") == "a\tb")
    #expect(request.header("Y") == "")
  }

  @Test func chunkedBodiesAskForALength() {
    let error = #expect(throws: HTTPParseError.self) {
      try parse("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
    }
    #expect(error?.status == 411)
  }

  /// RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host, and to any
  /// request with more than one.
  @Test(arguments: [
    ("GET / HTTP/1.1\r\n\r\n", false), ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", false),
    ("GET / HTTP/1.0\r\nHost: a\r\nhost: a\r\n\r\n", false), ("GET / HTTP/1.0\r\n\r\n", true),
    ("GET / HTTP/1.1\r\nhOsT: a\r\n\r\n", true),
  ])
  func aRequestNeedsExactlyOneHostUnlessItIsHTTP10(text: String, accepted: Bool) {
    let result = Result { () throws(HTTPParseError) in try parse(text) }
    switch result {
    case .success(let requests): #expect(accepted && requests.count == 1, "\(requests)")
    case .failure(let error):
      #expect(!accepted, "\(error)")
      #expect(error.status == 400)
      #expect(error.description.contains("Host"))
    }
  }

  /// RFC 9112 §2.2: empty lines before a request line are ignored, even split across reads.
  @Test func emptyLinesBeforeARequestLineAreIgnored() throws {
    var parser = HTTPRequestParser()
    var paths: [String] = []
    for chunk in ["\r", "\n\r\n", "GET /a HTTP/1.1\r\nHost: x\r\n\r\n\r", "\nGET /b HTTP/1.1\r\n"] {
      parser.feed(Array(chunk.utf8))
      while let request = try parser.next() { paths.append(request.path) }
    }
    parser.feed(Array("Host: x\r\n\r\n".utf8))
    while let request = try parser.next() { paths.append(request.path) }
    #expect(paths == ["/a", "/b"])
    #expect(!parser.hasPartialRequest)
  }

  /// Bytes that cannot begin a request line are refused as they arrive, not once a head would
  /// end: a TLS handshake, binary, a lowercase method or one longer than any method.
  @Test(
    arguments: [
      [0x16, 0x03, 0x01, 0x02, 0x00, 0x01], Array("get / HTTP/1.1\r\n".utf8), [0x00],
      Array("\r\r".utf8), Array(String(repeating: "A", count: 21).utf8),
    ] as [[UInt8]])
  func bytesThatCannotStartARequestAreRefusedAtOnce(_ bytes: [UInt8]) {
    var parser = HTTPRequestParser()
    parser.feed(bytes)
    let error = #expect(throws: HTTPParseError.self) { try parser.next() }
    #expect(error?.status == 400)
  }

  @Test(arguments: ["GET", "M-SEARCH /", "POST /apple/notifications HTTP/1.1\r\nHost", "\r", ""])
  func theStartOfARealRequestWaitsForTheRest(_ text: String) throws {
    var parser = HTTPRequestParser()
    parser.feed(Array(text.utf8))
    #expect(try parser.next() == nil)
  }

  @Test func aRefusedStartQuotesItsBytesPrintably() {
    var parser = HTTPRequestParser()
    parser.feed([0x16, 0x03, 0x01, 0x41])
    let error = #expect(throws: HTTPParseError.self) { try parser.next() }
    #expect(error == .badRequestLine("\\x16\\x03\\x01A"))
  }

  @Test func aResponseIsWrittenWithLengthAndConnection() {
    let bytes = HTTPResponse.text(202, "ok").serialized(keepAlive: false)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 202 Accepted\r\n"))
    #expect(text.contains("Content-Length: 2\r\n"))
    #expect(text.contains("Connection: close\r\n"))
    #expect(text.hasSuffix("\r\n\r\nok"))
  }

  /// An origin server with a clock says the time on its answers (RFC 9110 §6.6.1), as an
  /// IMF-fixdate; `reckon doctor --url` compares its clock with it.
  @Test(arguments: [
    (784_111_777.0, "Sun, 06 Nov 1994 08:49:37 GMT"),
    (1_796_000_000.9, "Mon, 30 Nov 2026 00:53:20 GMT"),
  ])
  func aResponseSaysTheDate(_ seconds: Double, _ date: String) {
    let bytes = HTTPResponse.text(200, "ok").serialized(
      keepAlive: true, now: Date(timeIntervalSince1970: seconds))
    #expect(String(decoding: bytes, as: UTF8.self).contains("\r\nDate: \(date)\r\n"))
  }
}
