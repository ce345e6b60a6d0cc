// A stand-in for the few Hummingbird 2 (and swift-service-lifecycle, swift-http-types, NIO)
// types examples/embedding/Hummingbird uses, with the same names and call shapes, for
// type-checking only: it serves nothing. Reckon depends on no outside package, so CI compiles
// the example against this; an app compiles it against Hummingbird itself, where
// `canImport(Hummingbird)` picks the real modules. Keep each signature as they spell it.

import Foundation

/// Hummingbird's `RequestContext`.
public protocol RequestContext: Sendable {}

/// Hummingbird's `BasicRequestContext`.
public struct BasicRequestContext: RequestContext {}

/// Something a route may answer with.
public protocol ResponseGenerator: Sendable {}

/// Hummingbird's `Router` over the basic context.
public final class Router: @unchecked Sendable {
  /// The context each handler is given.
  public typealias Context = BasicRequestContext

  /// A router with no routes.
  public init() {}

  /// Registers a POST route on `path`.
  @discardableResult
  public func post(
    _ path: String,
    use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
  ) -> Router {
    self
  }

  /// Registers a GET route on `path`.
  @discardableResult
  public func get(
    _ path: String,
    use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
  ) -> Router {
    self
  }
}

/// Hummingbird's `Request`.
public struct Request: Sendable {
  /// The request's headers.
  public var headers = HTTPFields()
  /// The request's body, streamed.
  public var body = RequestBody()
}

/// Hummingbird's `RequestBody`.
public struct RequestBody: Sendable {
  /// Collects the whole body, refusing one over `maxSize` bytes.
  public func collect(upTo maxSize: Int) async throws -> ByteBuffer { ByteBuffer() }
}

/// NIO's `ByteBuffer`.
public struct ByteBuffer: Sendable {
  /// An empty buffer.
  public init() {}
  /// A buffer holding `bytes`.
  public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {}
  /// NIO's view of the readable bytes.
  public var readableBytesView: [UInt8] { [] }
}

/// swift-http-types' `HTTPField`.
public struct HTTPField: Sendable {
  /// A field name.
  public struct Name: Hashable, Sendable {
    /// A name, when `name` is a valid one.
    public init?(_ name: String) {}
    /// `Content-Type`.
    public static let contentType = Name("Content-Type")!
  }
}

/// swift-http-types' `HTTPFields`.
public struct HTTPFields: ExpressibleByDictionaryLiteral, Sendable {
  /// No fields.
  public init() {}
  /// Fields from literal pairs.
  public init(dictionaryLiteral elements: (HTTPField.Name, String)...) {}
  /// The value of the field `name`, if any.
  public subscript(name: HTTPField.Name) -> String? {
    get { nil }
    set {}
  }
}

/// swift-http-types' `HTTPResponse`.
public enum HTTPResponse {
  /// A response status.
  public struct Status: Sendable {
    /// The status with code `code`.
    public init(code: Int, reasonPhrase: String = "") {}
  }
}

/// Hummingbird's `Response`.
public struct Response: ResponseGenerator {
  /// A response with a status, headers and a body.
  public init(
    status: HTTPResponse.Status, headers: HTTPFields = .init(), body: ResponseBody = .init()
  ) {}
}

/// Hummingbird's `ResponseBody`.
public struct ResponseBody: Sendable {
  /// An empty body.
  public init() {}
  /// A body of `byteBuffer`.
  public init(byteBuffer: ByteBuffer) {}
}

/// swift-service-lifecycle's `Service`: something run until the service group shuts down.
public protocol Service: Sendable {
  /// Runs the service.
  func run() async throws
}

/// swift-service-lifecycle's: runs `operation`, cancelling it on graceful shutdown.
public func cancelWhenGracefulShutdown<T: Sendable>(
  _ operation: @Sendable @escaping () async throws -> T
) async throws -> T {
  try await operation()
}

/// Hummingbird's `ApplicationConfiguration`.
public struct ApplicationConfiguration: Sendable {
  /// Where to listen.
  public enum Address: Sendable {
    /// A host name and port.
    case hostname(String, port: Int)
  }

  /// A configuration listening at `address`.
  public init(address: Address) {}
}

/// Hummingbird's `Application`.
public struct Application: Sendable {
  /// An application serving `router`, running `services` beside it.
  public init(
    router: Router, configuration: ApplicationConfiguration, services: [any Service] = []
  ) {}

  /// Serves until SIGTERM or SIGINT, then shuts the services down gracefully.
  public func runService() async throws {}
}
