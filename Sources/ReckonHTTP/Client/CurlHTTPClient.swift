import CCurl
import Foundation
import ReckonSupport

/// HTTP/1.1 and HTTP/2 over libcurl, the `HTTPTransport` the store clients send with: certificate and host
/// verification on, http and https only, no redirects followed, a bounded response body, and at
/// most `maximumConnections` transfers at once, each on a reused easy handle so keep-alive
/// connections are reused. (It replaces `URLSession`, whose Linux implementation leaks on
/// every request.)
public final class CurlHTTPClient: HTTPTransport {
  /// The default cap on a response body: Apple's answers are a few hundred bytes.
  public static let defaultResponseLimit = 1 << 20

  /// curl_global_init is not thread-safe in older libcurl; a static let runs it exactly once.
  private static let globalInit: Bool = reckon_curl_global_init() == CURLE_OK

  private let workers: CurlWorkers

  /// A client whose transfers are aborted after `timeout` seconds in all (connecting included).
  public init(
    timeout: TimeInterval = 30, maximumConnections: Int = 16,
    maximumResponseBytes: Int = defaultResponseLimit
  ) {
    _ = Self.globalInit
    workers = CurlWorkers(
      maximum: maximumConnections, timeout: timeout, limit: maximumResponseBytes)
  }

  deinit { workers.stop() }

  /// Sends `request` and waits for the whole response, without blocking the caller's thread.
  public func perform(_ request: HTTPClientRequest) async throws(HTTPTransportError)
    -> HTTPClientResponse
  {
    let job = CurlJob(request: request)
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if job.start(continuation) { workers.submit(job) }
      }
    } onCancel: {
      job.cancel()
    }
    return try outcome.get()
  }
}
