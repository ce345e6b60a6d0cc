// A stand-in for the few Vapor 4 types examples/embedding/Vapor uses, with the same names and
// call shapes, for type-checking only: it serves nothing. Reckon depends on no outside package,
// so CI compiles the example against this; an app compiles it against Vapor itself, where
// `canImport(Vapor)` picks the real module. Keep each signature as Vapor spells it.

import Foundation

/// Vapor's `Application`: routes, a logger and lifecycle handlers.
public final class Application: @unchecked Sendable {
  /// The application's logger (swift-log's `Logger`).
  public let logger = Logger(label: "codes.vapor.application")
  /// Where lifecycle handlers are registered.
  public let lifecycle = Lifecycle()

  /// An application; Vapor's is made with `Application.make(_:)`.
  public init() {}

  /// Registers a route for `method` on `path`, collecting the body as `body` says.
  @discardableResult
  public func on<Response: AsyncResponseEncodable>(
    _ method: HTTPMethod, _ path: PathComponent..., body: HTTPBodyStreamStrategy = .collect,
    use closure: @escaping @Sendable (Request) async throws -> Response
  ) -> Route {
    Route()
  }

  /// Registers a GET route on `path`.
  @discardableResult
  public func get<Response: AsyncResponseEncodable>(
    _ path: PathComponent..., use closure: @escaping @Sendable (Request) async throws -> Response
  ) -> Route {
    Route()
  }

  /// Vapor's `Application.Lifecycle`.
  public final class Lifecycle: @unchecked Sendable {
    /// Adds a handler called at boot and at shutdown.
    public func use(_ handler: any LifecycleHandler) {}
  }
}

/// A registered route.
public final class Route: Sendable {}

/// Vapor's lifecycle handler: told when the application has booted and when it shuts down.
public protocol LifecycleHandler: Sendable {
  /// After the application booted.
  func didBootAsync(_ application: Application) async throws
  /// When the application shuts down, before it exits.
  func shutdownAsync(_ application: Application) async
}

/// One path component of a route (Vapor's is an enum made from string literals).
public struct PathComponent: ExpressibleByStringLiteral, Sendable {
  /// A constant component.
  public init(stringLiteral value: String) {}
}

/// NIO's `HTTPMethod`.
public enum HTTPMethod: Sendable {
  // Spelt as NIO spells them.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// POST.
  case POST
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// GET.
  case GET
}

/// How Vapor reads a request's body.
public enum HTTPBodyStreamStrategy: Sendable {
  /// Collected into memory, up to `maxSize`.
  case collect(maxSize: ByteCount?)

  /// Collected, up to the application's default size.
  public static var collect: HTTPBodyStreamStrategy { .collect(maxSize: nil) }
}

/// A size such as `"256kb"`.
public struct ByteCount: ExpressibleByStringLiteral, Sendable {
  /// A size written as Vapor's string literals write it.
  public init(stringLiteral value: String) {}
}

/// Vapor's `Request`.
public final class Request: @unchecked Sendable {
  /// The request's headers.
  public var headers = HTTPHeaders()
  /// The request's body.
  public var body = Body()
  /// Who sent it.
  public var remoteAddress: SocketAddress? { nil }

  /// Vapor's `Request.Body`.
  public struct Body: Sendable {
    /// The collected body, when it was collected.
    public var data: ByteBuffer? { nil }
  }
}

/// NIO's `SocketAddress`.
public struct SocketAddress: CustomStringConvertible, Sendable {
  /// The address as text.
  public var description: String { "" }
}

/// NIO's `ByteBuffer`.
public struct ByteBuffer: Sendable {
  /// NIO's view of the readable bytes.
  public var readableBytesView: [UInt8] { [] }
}

extension Data {
  /// NIOFoundationCompat's copy of a buffer's readable bytes.
  public init(buffer: ByteBuffer) {
    self.init(buffer.readableBytesView)
  }
}

/// NIO's `HTTPHeaders`.
public struct HTTPHeaders: ExpressibleByDictionaryLiteral, Sendable {
  /// Headers from literal pairs.
  public init(dictionaryLiteral elements: (String, String)...) {}

  /// The first value of the header `name`, if any.
  public func first(name: String) -> String? { nil }
}

/// NIO's `HTTPResponseStatus`.
public struct HTTPResponseStatus: Sendable {
  /// The status with code `statusCode`.
  public init(statusCode: Int, reasonPhrase: String = "") {}

  /// 200.
  public static let ok = HTTPResponseStatus(statusCode: 200)
}

/// Something a route may answer with.
public protocol AsyncResponseEncodable: Sendable {}

/// Vapor's `Response`.
public final class Response: AsyncResponseEncodable, @unchecked Sendable {
  /// A response with a status, headers and a body.
  public init(
    status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:], body: Body = Body()
  ) {}

  /// Vapor's `Response.Body`.
  public struct Body: Sendable {
    /// An empty body.
    public init() {}
    /// A body of `data`.
    public init(data: Data) {}
    /// A body of `string`.
    public init(string: String) {}
  }
}

/// swift-log's `Logger`, as far as the example logs.
public struct Logger: Sendable {
  /// How much a message matters.
  public enum Level: Sendable {
    /// Information.
    case info
    /// Worth a look.
    case warning
    /// Something failed.
    case error
  }

  /// A logger named `label`.
  public init(label: String) {}

  /// Logs `message` at `level`.
  public func log(level: Level, _ message: String) {}
  /// Logs at `info`.
  public func info(_ message: String) {}
  /// Logs at `warning`.
  public func warning(_ message: String) {}
  /// Logs at `error`.
  public func error(_ message: String) {}
}
