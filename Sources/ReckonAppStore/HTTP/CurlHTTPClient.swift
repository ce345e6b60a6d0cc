import CCurl
import Foundation

/// HTTP/1.1 and HTTP/2 over libcurl for the App Store Server API clients: certificate and host
/// verification on, http and https only, no redirects followed, a bounded response body, and at
/// most `maximumConnections` transfers at once, each on a reused easy handle so keep-alive
/// connections are reused. (It replaces `URLSession`, whose Linux implementation leaks on
/// every request.)
package final class CurlHTTPClient: Sendable {
  /// The default cap on a response body: Apple's answers are a few hundred bytes.
  package static let defaultResponseLimit = 1 << 20

  /// curl_global_init is not thread-safe in older libcurl; a static let runs it exactly once.
  private static let globalInit: Bool = reckon_curl_global_init() == CURLE_OK

  private let workers: CurlWorkers

  /// A client whose transfers are aborted after `timeout` seconds in all (connecting included).
  package init(
    timeout: TimeInterval = 30, maximumConnections: Int = 16,
    maximumResponseBytes: Int = defaultResponseLimit
  ) {
    _ = Self.globalInit
    workers = CurlWorkers(
      maximum: maximumConnections, timeout: timeout, limit: maximumResponseBytes)
  }

  deinit { workers.stop() }

  /// Sends `request` and waits for the whole response, without blocking the caller's thread.
  package func perform(_ request: CurlRequest) async throws(HTTPTransportError) -> CurlResponse {
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
