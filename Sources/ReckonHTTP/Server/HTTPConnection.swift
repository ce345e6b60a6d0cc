/// One connection's progress from request to request, as a state machine. The server feeds it
/// the bytes it reads and the time on a monotonic clock, and carries out the action it returns;
/// the machine itself never touches a socket or a clock, so every timing rule is testable.
struct HTTPConnection {
  /// What the server should do next on this connection.
  enum Action: Hashable {
    /// Answer this complete request (first claiming the connection's slot for it, and closing
    /// instead if the slot was given away), then report it with `answered(now:)`.
    case answer(HTTPRequest)
    /// The bytes are not a request the parser accepts: answer the error and close.
    case reject(HTTPParseError)
    /// Write `100 Continue`, so a client waiting for it sends its body; then ask again.
    case sendContinue
    /// Wait for bytes and report them with `received(_:)`; first pause for more to gather when
    /// the request is trickling in a few bytes at a time.
    case read(gatherFirst: Bool)
    /// The read timeout passed: close, answering 408 first when a request was under way.
    case timeOut(requestUnderway: Bool)
    /// Close without a word: the server is stopping, or gave this connection's slot away
    /// while it waited for a request or read one.
    case close
  }

  /// What answering a request left the connection as.
  enum AfterAnswer: Hashable {
    /// Nothing of a next request has arrived: the connection is idle, and may be evicted.
    case idle
    /// Bytes of a next request are already here (pipelined): it is reading that request.
    case nextRequestUnderway
  }

  /// A read this small into a request still incomplete pauses before the next read.
  static let smallRead = 64

  private var parser: HTTPRequestParser
  private let readTimeout: Double
  /// When the connection last started waiting for a request: its opening or its last answer.
  private var waitingSince: Double
  /// Whether `100 Continue` was sent for the request under way.
  private var toldToContinue = false
  /// Between a request's first byte and its answer.
  private(set) var isBusy = false
  /// How many bytes the last read brought.
  private var lastReadCount = Int.max

  /// A connection opened at `now` (seconds on a monotonic clock).
  init(limits: HTTPRequestParser.Limits, readTimeout: Double, now: Double) {
    self.parser = HTTPRequestParser(limits: limits)
    self.readTimeout = readTimeout
    self.waitingSince = now
  }

  /// The next action at `now`; `isEvicted` is asked only while no complete request is at hand:
  /// a connection answering one is never evicted, but one waiting for a request or reading one
  /// (a slow head or body is what a flood holds slots with) may be.
  mutating func nextAction(now: Double, isStopping: Bool, isEvicted: () -> Bool) -> Action {
    do {
      if let request = try parser.next() {
        toldToContinue = false
        return .answer(request)
      }
    } catch {
      return .reject(error)
    }
    if parser.awaitsContinue && !toldToContinue {
      // Otherwise such a client (curl, for a large body) waits a second before sending it.
      toldToContinue = true
      // Its body's first bytes are read at once; the rest gather as any request's.
      lastReadCount = Int.max
      return .sendContinue
    }
    if isStopping && !parser.hasPartialRequest { return .close }
    if isEvicted() { return .close }
    if now - waitingSince > readTimeout {
      return .timeOut(requestUnderway: parser.hasPartialRequest)
    }
    // A request coming in a few bytes at a time would otherwise wake the connection's thread
    // for every few bytes: one connection could burn most of a core until the read timeout.
    // A real client's segments hold more than this.
    return .read(gatherFirst: parser.hasPartialRequest && lastReadCount < Self.smallRead)
  }

  /// Takes bytes read; true when they are the first of a request, so that the server must
  /// claim the connection's slot as busy (and close it if the slot was given away meanwhile).
  mutating func received(_ bytes: [UInt8]) -> Bool {
    lastReadCount = bytes.count
    parser.feed(bytes)
    guard !isBusy && !bytes.isEmpty else { return false }
    isBusy = true
    return true
  }

  /// Records that the request handed out was answered at `now` and the connection is kept.
  mutating func answered(now: Double) -> AfterAnswer {
    waitingSince = now
    guard !parser.hasPartialRequest else { return .nextRequestUnderway }
    isBusy = false
    return .idle
  }
}
