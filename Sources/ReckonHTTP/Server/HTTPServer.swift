import Dispatch
import Foundation

/// A small HTTP/1.1 server on POSIX sockets: a thread accepts, a thread per connection reads,
/// parses with `HTTPRequestParser`, runs the async handler and writes the response, keeping the
/// connection alive when the client asks. `shutdown()` stops accepting and lets in-flight
/// requests finish.
public final class HTTPServer: @unchecked Sendable {
  /// Where and how the server listens.
  public struct Configuration: Sendable {
    /// The IPv4 address to bind.
    public var host: String
    /// The port; 0 lets the system pick one (read it from `port` after `start()`).
    public var port: Int
    /// Parser limits.
    public var limits: HTTPRequestParser.Limits
    /// How long a connection may sit without completing a request before it is closed.
    public var readTimeout: Double
    /// How long a client may take to take in a response before its connection is closed.
    public var writeTimeout: Double
    /// Open connections served at once (a thread each). Beyond it a new connection takes the
    /// place of one not being answered from the address holding at least two more than its
    /// own, so that one client cannot keep others out, or else of the one idle longest between
    /// requests; when neither is, it is answered 503 and closed, so a flood cannot exhaust
    /// threads or memory.
    public var maximumConnections: Int
    /// Open connections served at once from one address; beyond it a connection from there is
    /// answered 503 and closed. Without it, one client holds more than an even share only
    /// while the server has room; behind a proxy, every connection has the proxy's address.
    public var maximumConnectionsPerClient: Int

    /// A configuration; defaults to 127.0.0.1 on a port the system picks.
    public init(
      host: String = "127.0.0.1", port: Int = 0, limits: HTTPRequestParser.Limits = .init(),
      readTimeout: Double = 10, writeTimeout: Double = 10, maximumConnections: Int = 256,
      maximumConnectionsPerClient: Int? = nil
    ) {
      self.host = host
      self.port = port
      self.limits = limits
      self.readTimeout = readTimeout
      self.writeTimeout = writeTimeout
      self.maximumConnections = maximumConnections
      self.maximumConnectionsPerClient = maximumConnectionsPerClient ?? maximumConnections
    }
  }

  /// Answers one request.
  public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse
  /// Answers one request without suspending, on the connection's own thread.
  public typealias SynchronousHandler = @Sendable (HTTPRequest) -> HTTPResponse

  /// How requests are answered: async handlers hop onto the cooperative pool; synchronous ones
  /// stay on the connection thread, so a busy pool cannot delay them (test stand-ins rely on it).
  private enum Responder: Sendable {
    case async(Handler)
    case synchronous(SynchronousHandler)
  }

  private let configuration: Configuration
  private let responder: Responder
  private let refused: @Sendable (HTTPRefusal) -> Void
  private let connectionThreads = DispatchGroup()
  private let acceptorDone = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var listener: Int32 = -1
  private var stopping = false
  private var boundPort = 0
  private var table: ConnectionTable
  /// Connections refused for the limits and not reported yet: by client address for the limit
  /// per client, under nil for the server's.
  private var refusedConnections: [String?: Int] = [:]

  /// A server that answers with `handler`, telling `refused` of each request it answers
  /// itself; call `start()` to listen.
  public init(
    configuration: Configuration = .init(),
    refused: @escaping @Sendable (HTTPRefusal) -> Void = { _ in }, handler: @escaping Handler
  ) {
    self.configuration = configuration
    self.refused = refused
    self.responder = .async(handler)
    self.table = ConnectionTable(
      maximum: configuration.maximumConnections,
      maximumPerClient: configuration.maximumConnectionsPerClient)
  }

  /// A server that answers with a handler that never suspends; call `start()` to listen.
  public init(
    configuration: Configuration = .init(),
    refused: @escaping @Sendable (HTTPRefusal) -> Void = { _ in },
    synchronousHandler: @escaping SynchronousHandler
  ) {
    self.configuration = configuration
    self.refused = refused
    self.responder = .synchronous(synchronousHandler)
    self.table = ConnectionTable(
      maximum: configuration.maximumConnections,
      maximumPerClient: configuration.maximumConnectionsPerClient)
  }

  /// The bound port (after `start()`).
  public var port: Int { lock.withLock { boundPort } }

  /// Connections open now, and of them those reading or answering a request.
  public var openConnections: (all: Int, busy: Int) {
    lock.withLock { (table.count, table.busyCount) }
  }

  /// Binds, listens and starts accepting; returns the bound port.
  @discardableResult
  public func start() throws(HTTPServerError) -> Int {
    let (descriptor, port) = try Socket.listen(
      host: configuration.host, port: configuration.port, backlog: 128)
    lock.withLock {
      listener = descriptor
      boundPort = port
    }
    let thread = Thread { [self] in acceptLoop(descriptor) }
    thread.name = "reckon-http-accept"
    thread.start()
    return port
  }

  /// Stops accepting, waits up to `timeout` seconds for in-flight requests to finish, closes.
  public func shutdown(timeout: Double = 30) {
    let wasRunning = lock.withLock { () -> Bool in
      defer { stopping = true }
      return !stopping && listener >= 0
    }
    guard wasRunning else { return }
    acceptorDone.wait()
    reportRefusedConnections()
    _ = connectionThreads.wait(timeout: .now() + timeout)
  }

  private var isStopping: Bool { lock.withLock { stopping } }

  private func acceptLoop(_ descriptor: Int32) {
    while !isStopping {
      guard Socket.waitReadable(descriptor, milliseconds: 50),
        let client = Socket.accept(descriptor)
      else { continue }
      let peer = Socket.peer(client)
      let address = peer.map(Self.address(of:)) ?? "unknown"
      let admission = lock.withLock {
        table.admit(client: address, now: DispatchTime.now().seconds)
      }
      guard case .admitted(let id, _) = admission else {
        // A new connection's buffer takes this small answer at once; the acceptor never waits.
        _ = Socket.write(client, Array(Self.tooManyConnections), timeout: 0)
        Socket.close(client)
        refuseConnection(from: admission == .clientFull ? address : nil)
        continue
      }
      connectionThreads.enter()
      let thread = Thread { [self] in
        serve(client, id: id, peer: peer)
        Socket.close(client)
        lock.withLock { table.closed(id) }
        connectionThreads.leave()
      }
      thread.name = "reckon-http-connection"
      thread.start()
    }
    Socket.close(descriptor)
    acceptorDone.signal()
  }

  /// Counts a connection refused for a limit (the one per client when `client` is given),
  /// reported with the others of the next second off the accepting thread: a log that blocks
  /// must not stop the server accepting.
  private func refuseConnection(from client: String?) {
    let first = lock.withLock {
      refusedConnections[client, default: 0] += 1
      return refusedConnections.values.reduce(0, +) == 1
    }
    guard first else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in reportRefusedConnections() }
  }

  /// Reports the connections refused since the last report, if any (`shutdown` reports what
  /// the last second's timer has not yet): the server's limit first, then each client's.
  private func reportRefusedConnections() {
    let counts = lock.withLock {
      defer { refusedConnections = [:] }
      return refusedConnections
    }
    if let count = counts[nil] {
      refused(
        HTTPRefusal(
          status: 503, reason: "too many connections (\(configuration.maximumConnections) open)",
          count: count))
    }
    for (client, count) in counts.compactMap({ key, count in key.map { ($0, count) } })
      .sorted(by: { $0.0 < $1.0 })
    {
      refused(
        HTTPRefusal(
          status: 503,
          reason:
            "too many connections from one client (\(configuration.maximumConnectionsPerClient) open)",
          count: count, client: client))
    }
  }

  /// The address of `peer` (`address:port`), the key of the limit per client.
  private static func address(of peer: String) -> String {
    guard let colon = peer.lastIndex(of: ":") else { return peer }
    return String(peer[..<colon])
  }

  /// How long a read too small to complete a request waits for more to gather.
  private static let gatherMicroseconds: useconds_t = 10_000

  private static let tooManyConnections: Data = {
    var response = HTTPResponse.text(503, "too many connections; try again\n")
    response.headers.append(("Retry-After", "1"))
    return response.serialized(keepAlive: false)
  }()

  /// Carries out `HTTPConnection`'s actions on the socket until it says to close.
  private func serve(_ client: Int32, id: Int, peer: String?) {
    var connection = HTTPConnection(
      limits: configuration.limits, readTimeout: configuration.readTimeout,
      now: DispatchTime.now().seconds)
    while true {
      let action = connection.nextAction(
        now: DispatchTime.now().seconds, isStopping: isStopping,
        isEvicted: { lock.withLock { table.isEvicted(id) } })
      switch action {
      case .answer(var request):
        // Given away while its request came in: it no longer counts, so it may not be served.
        guard lock.withLock({ table.busy(id) }) else { return }
        request.client = peer
        let response = respond(to: request)
        let keepAlive = request.keepAlive && !isStopping
        guard
          write(
            response.serialized(keepAlive: keepAlive, headOnly: request.method == "HEAD"),
            to: client), keepAlive
        else { return }
        let now = DispatchTime.now().seconds
        let next = connection.answered(now: now)
        lock.withLock {
          table.idle(id, now: now)
          if next == .nextRequestUnderway { _ = table.reading(id) }
        }
      case .reject(let error):
        _ = write(
          HTTPResponse.text(error.status, error.description + "\n").serialized(keepAlive: false),
          to: client)
        refused(HTTPRefusal(status: error.status, reason: error.description, client: peer))
        return
      case .sendContinue:
        guard write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: client) else { return }
      case .timeOut(let requestUnderway):
        if requestUnderway {
          _ = write(
            HTTPResponse.text(408, "request timed out\n").serialized(keepAlive: false), to: client)
          refused(
            HTTPRefusal(
              status: 408,
              reason: "request timed out: incomplete after \(configuration.readTimeout) s",
              client: peer))
        }
        return
      case .close:
        return
      case .read(let gatherFirst):
        if gatherFirst { usleep(Self.gatherMicroseconds) }
        guard Socket.waitReadable(client, milliseconds: 50) else { continue }
        guard let bytes = Socket.read(client) else { return }
        // Closed to make room since the last check: it is no longer counted, so it may not
        // serve. Its client sees the reset any keep-alive timeout can cause; a proxy in front
        // may answer its request 502 rather than retry it, so a second's grace makes it rare
        // (none is given to a client holding more than its share of a full server).
        if connection.received(bytes), !lock.withLock({ table.reading(id) }) { return }
      }
    }
  }

  /// Writes `data` within the write timeout; false when the client did not take it.
  private func write(_ data: Data, to client: Int32) -> Bool {
    Socket.write(client, Array(data), timeout: configuration.writeTimeout)
  }

  /// Runs the handler from this connection's own thread (never blocking a cooperative-pool thread).
  /// The task starts on this thread and runs here until it first suspends, so a handler that
  /// never suspends costs no hand-off to the pool and back.
  private func respond(to request: HTTPRequest) -> HTTPResponse {
    let handler: Handler
    switch responder {
    case .synchronous(let answer): return answer(request)
    case .async(let asyncHandler): handler = asyncHandler
    }
    let done = DispatchSemaphore(value: 0)
    let box = ResponseBox()
    Task.immediate {
      box.response = await handler(request)
      done.signal()
    }
    done.wait()
    return box.response ?? .text(500, "no response\n")
  }
}

extension DispatchTime {
  /// The monotonic clock in seconds.
  fileprivate var seconds: Double { Double(uptimeNanoseconds) / 1e9 }
}

private final class ResponseBox: @unchecked Sendable {
  var response: HTTPResponse?
}
