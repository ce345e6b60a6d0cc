import Foundation

/// A pure HTTP/1.1 request parser: feed it bytes as they arrive, take complete requests out.
/// Supports Content-Length bodies and pipelined keep-alive requests; enforces limits on header
/// size, header count and body size. No I/O, so its limits are tested by feeding bytes.
public struct HTTPRequestParser: Sendable {
  /// The parser's limits.
  public struct Limits: Hashable, Sendable {
    /// The request line plus headers, in bytes.
    public var maximumHeaderBytes: Int
    /// The number of header fields.
    public var maximumHeaderCount: Int
    /// The body, in bytes.
    public var maximumBodyBytes: Int

    /// Limits; defaults suit a webhook (16 KiB of headers, 100 fields, 256 KiB body).
    public init(
      maximumHeaderBytes: Int = 16_384, maximumHeaderCount: Int = 100,
      maximumBodyBytes: Int = 262_144
    ) {
      self.maximumHeaderBytes = maximumHeaderBytes
      self.maximumHeaderCount = maximumHeaderCount
      self.maximumBodyBytes = maximumBodyBytes
    }
  }

  /// The limits in force.
  public let limits: Limits
  private var buffer: [UInt8] = []
  private var head: HTTPRequest?
  private var bodyLength = 0
  /// Where the search for the end of the head goes on from: no `\r\n\r\n` starts before it.
  /// Searching again from the start on every read made a head sent a byte at a time cost time
  /// in the square of its length.
  private var headSearchedUpTo = 0

  /// A parser with `limits`.
  public init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Whether bytes of an unfinished request are buffered.
  public var hasPartialRequest: Bool { !buffer.isEmpty || head != nil }

  /// Whether the request read so far has its head and waits for a body its client will send
  /// only once told to go on (`Expect: 100-continue`); the head passed every limit. An HTTP/1.0
  /// client's expectation is ignored, as RFC 9110 requires.
  public var awaitsContinue: Bool {
    guard let head, head.version == "HTTP/1.1", buffer.count < bodyLength,
      let expect = head.header("Expect")
    else {
      return false
    }
    return HTTPRequest.sameName(expect, "100-continue")
  }

  /// Appends received bytes.
  public mutating func feed(_ bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// The next complete request, nil if more bytes are needed; throws on a request to refuse.
  public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
    if head == nil {
      skipEmptyLines()
      guard let end = headEnd() else {
        if buffer.count > limits.maximumHeaderBytes {
          throw .headersTooLarge("more than \(limits.maximumHeaderBytes) bytes")
        }
        try refuseUnlikelyStart()
        return nil
      }
      guard end <= limits.maximumHeaderBytes else {
        throw .headersTooLarge("more than \(limits.maximumHeaderBytes) bytes")
      }
      let parsed: (HTTPRequest, Int)
      if let ascii = try parseASCIIHead(end) {
        parsed = ascii
      } else {
        parsed = try parseHead(String(decoding: buffer[..<end], as: UTF8.self))
      }
      try Self.checkHost(of: parsed.0)
      buffer.removeFirst(end + 4)
      headSearchedUpTo = 0
      (head, bodyLength) = parsed
    }
    guard var request = head, buffer.count >= bodyLength else { return nil }
    request.body = Data(buffer[..<bodyLength])
    buffer.removeFirst(bodyLength)
    head = nil
    bodyLength = 0
    return request
  }

  /// Refuses an HTTP/1.1 request without a Host header, and any request with more than one
  /// (RFC 9112 §3.2): a proxy and this server could otherwise disagree on where it is going.
  private static func checkHost(of request: HTTPRequest) throws(HTTPParseError) {
    var hosts = 0
    for header in request.headers where HTTPRequest.sameName(header.name, "host") { hosts += 1 }
    if hosts > 1 { throw .badHeader("more than one Host header") }
    if hosts == 0 && request.version == "HTTP/1.1" {
      throw .badHeader("no Host header, which HTTP/1.1 requires")
    }
  }

  /// Drops the empty lines a client may send before a request line (RFC 9112 §2.2), as older
  /// clients do after a body.
  private mutating func skipEmptyLines() {
    var count = 0
    while count + 1 < buffer.count, buffer[count] == 13, buffer[count + 1] == 10 { count += 2 }
    guard count > 0 else { return }
    buffer.removeFirst(count)
    headSearchedUpTo = 0
  }

  /// Refuses an unfinished head whose first bytes already cannot begin a request line (binary,
  /// a TLS handshake, a method no server knows), so that it is answered 400 at once rather than
  /// holding a connection until the read timeout.
  private func refuseUnlikelyStart() throws(HTTPParseError) {
    // A lone CR may be the first half of an empty line still arriving.
    if buffer.count == 1 && buffer[0] == 13 { return }
    var index = 0
    while index < buffer.count, buffer[index] != UInt8(ascii: " ") {
      let byte = buffer[index]
      let methodByte =
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "-")
      guard methodByte, index < Self.longestMethod else {
        let line = buffer.prefix { $0 != 13 && $0 != 10 }.prefix(80)
        throw .badRequestLine(Self.printable(line))
      }
      index += 1
    }
  }

  /// Longer than any method a webhook is sent (M-SEARCH, the longest common one, has 8 bytes).
  private static let longestMethod = 20

  /// Bytes as a message may quote them: printable ASCII kept, anything else as `\xNN`.
  private static func printable(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map {
      $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0)
    }
    .joined()
  }

  private mutating func headEnd() -> Int? {
    guard buffer.count - 4 >= headSearchedUpTo else { return nil }
    for index in headSearchedUpTo...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
      && buffer[index + 3] == 10
    {
      return index
    }
    // The last three bytes may begin an end whose rest has not arrived.
    headSearchedUpTo = buffer.count - 3
    return nil
  }

  /// The head in `buffer[..<end]` read straight from its bytes when they are all ASCII (every
  /// real request), by the same rules as `parseHead`: splitting a `String` of it into lines and
  /// fields cost more than the rest of the parser. Nil for a head with other bytes.
  private func parseASCIIHead(_ end: Int) throws(HTTPParseError) -> (HTTPRequest, Int)? {
    guard !buffer[..<end].contains(where: { $0 >= 0x80 }) else { return nil }
    var lines: [Range<Int>] = []
    var start = 0
    var index = 0
    while index + 1 < end {
      if buffer[index] == 13 && buffer[index + 1] == 10 {
        lines.append(start..<index)
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    lines.append(start..<end)
    let requestLine = buffer[lines[0]]
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty,
      parts[0].allSatisfy({
        ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "-")
      }),
      parts[1].first == UInt8(ascii: "/") || parts[1].elementsEqual("*".utf8),
      parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }),
      parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8)
    else { throw .badRequestLine(String(decoding: requestLine.prefix(80), as: UTF8.self)) }
    guard lines.count - 1 <= limits.maximumHeaderCount else {
      throw .headersTooLarge("\(lines.count - 1) fields, more than \(limits.maximumHeaderCount)")
    }
    func blank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == 9 }
    var headers: [(name: String, value: String)] = []
    headers.reserveCapacity(lines.count - 1)
    for line in lines.dropFirst() {
      let field = buffer[line]
      guard let colon = field.firstIndex(of: UInt8(ascii: ":")), colon != field.startIndex,
        field[..<colon].allSatisfy(Self.isTokenByte),
        field[(colon + 1)...].allSatisfy(Self.isFieldValueByte)
      else { throw .badHeader(String(decoding: field.prefix(80), as: UTF8.self)) }
      var value = field[(colon + 1)...]
      while let first = value.first, blank(first) { value.removeFirst() }
      while let last = value.last, blank(last) { value.removeLast() }
      headers.append(
        (String(decoding: field[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }
    let request = HTTPRequest(
      method: String(decoding: parts[0], as: UTF8.self),
      target: String(decoding: parts[1], as: UTF8.self),
      version: String(decoding: parts[2], as: UTF8.self), headers: headers)
    return (request, try bodyLength(of: request))
  }

  private func parseHead(_ text: String) throws(HTTPParseError) -> (HTTPRequest, Int) {
    // "\r\n" is one Character, so this splits exactly where `components(separatedBy:)` did,
    // without bridging through Foundation for every request.
    let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
    let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isUppercase || $0 == "-" }),
      parts[1].hasPrefix("/") || parts[1] == "*",
      parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }),
      parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
    else { throw .badRequestLine(String(lines[0].prefix(80))) }
    let fields = lines.dropFirst()
    guard fields.count <= limits.maximumHeaderCount else {
      throw .headersTooLarge("\(fields.count) fields, more than \(limits.maximumHeaderCount)")
    }
    var headers: [(name: String, value: String)] = []
    for line in fields {
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
        line[..<colon].utf8.allSatisfy(Self.isTokenByte),
        line[line.index(after: colon)...].utf8.allSatisfy(Self.isFieldValueByte)
      else { throw .badHeader(String(line.prefix(80))) }
      headers.append(
        (
          String(line[..<colon]),
          Self.trimmed(line[line.index(after: colon)...])
        ))
    }
    let request = HTTPRequest(
      method: String(parts[0]), target: String(parts[1]), version: String(parts[2]),
      headers: headers)
    return (request, try bodyLength(of: request))
  }

  /// A byte of a field name (RFC 9110's `token`): letters, digits and ``!#$%&'*+-.^_`|~``.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  /// A byte a field value may hold (RFC 9110 §5.5): visible characters, space, tab and bytes
  /// from 0x80. A CR, LF or NUL inside a value is refused: a proxy that ends lines at a bare LF
  /// would read another header, or another request, where Reckon reads one value.
  private static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 9 || (byte >= 0x20 && byte != 0x7F)
  }

  /// `value` without leading and trailing `.whitespaces`. Spaces and tabs (all a header value
  /// usually has around it) are dropped here; Foundation's trimming is left only for values that
  /// then start or end with a non-ASCII character, which might be another kind of space.
  private static func trimmed(_ value: Substring) -> String {
    func blank(_ character: Character) -> Bool { character == " " || character == "\t" }
    var value = value
    while let first = value.first, blank(first) { value.removeFirst() }
    while let last = value.last, blank(last) { value.removeLast() }
    guard let first = value.first, let last = value.last else { return "" }
    if first.isASCII && last.isASCII { return String(value) }
    return value.trimmingCharacters(in: .whitespaces)
  }

  /// Whether a header name is Content-Length in any case (ASCII names without `lowercased()`).
  private static func isContentLength(_ name: String) -> Bool {
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.lowercased() == "content-length" }
    return HTTPRequest.sameName(name, "content-length")
  }

  private func bodyLength(of request: HTTPRequest) throws(HTTPParseError) -> Int {
    if request.header("Transfer-Encoding") != nil {
      throw .lengthRequired("Transfer-Encoding is not supported")
    }
    let lengths = Set(
      request.headers.filter { Self.isContentLength($0.name) }.map(\.value))
    guard let text = lengths.first else { return 0 }
    guard lengths.count == 1 else { throw .badContentLength("several different values") }
    guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
      let length = Int(text)
    else {
      throw .badContentLength("'\(text.prefix(20))' is not a number")
    }
    guard length <= limits.maximumBodyBytes else {
      throw .bodyTooLarge(limit: limits.maximumBodyBytes)
    }
    return length
  }
}
