import CCurl
import Foundation
import ReckonSupport

/// One libcurl easy handle, used by one worker thread for one transfer at a time. Reusing it
/// keeps its connection cache, so sequential requests to Apple share a keep-alive connection.
final class CurlEasyHandle {
  private let handle: UnsafeMutableRawPointer
  private let errorBuffer: UnsafeMutablePointer<CChar>

  init?() {
    guard let handle = curl_easy_init() else { return nil }
    self.handle = handle
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    curl_easy_cleanup(handle)
    errorBuffer.deallocate()
  }

  /// Runs `job`'s request to completion, blocking the calling thread (never a Swift
  /// cooperative-pool thread). The transfer is aborted after `timeout` in all.
  func perform(_ job: CurlJob, timeout: TimeInterval, limit: Int) -> CurlJob.Outcome {
    let request = job.request
    let transfer = CurlTransfer(limit: limit, job: job)
    // A reset clears every option from the last request but keeps live connections.
    curl_easy_reset(handle)
    var headers: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(headers) }
    for (name, value) in request.headers {
      headers = curl_slist_append(headers, "\(name): \(value)")
    }
    // No `Expect: 100-continue` round trip before a body.
    headers = curl_slist_append(headers, "Expect:")

    let milliseconds = max(1, Int(min(timeout, 86_400) * 1000))
    let context = Unmanaged.passUnretained(transfer).toOpaque()
    var setup = [
      // Timeouts without SIGALRM, which is not safe with several threads.
      reckon_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
      reckon_curl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString),
      reckon_curl_allow_http_only(handle),
      reckon_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
      reckon_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
      reckon_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
      reckon_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
      reckon_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
      reckon_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)),
      reckon_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
      reckon_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, CurlTransfer.writeCallback),
      reckon_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
      reckon_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, CurlTransfer.headerCallback),
      reckon_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context),
      reckon_curl_setopt_progress_callback(handle, CurlTransfer.progressCallback),
      reckon_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context),
      reckon_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
      reckon_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
    ]
    // Plain http goes only to a loopback stand-in; a proxy from `http_proxy` or `ALL_PROXY`
    // would see the bearer token in clear and could answer 202 for Apple. https keeps the
    // environment's proxy, which only tunnels the TLS connection.
    if request.url.scheme?.lowercased() == "http" {
      setup.append(reckon_curl_setopt_string(handle, CURLOPT_PROXY, ""))
    }
    setup += method(request)
    if let refused = setup.first(where: { $0 != CURLE_OK }) {
      return .failure(
        .notSent("curl refused the request: \(String(cString: curl_easy_strerror(refused)))"))
    }

    errorBuffer[0] = 0
    let code = withExtendedLifetime(transfer) { curl_easy_perform(handle) }
    if transfer.overflowed || code == CURLE_FILESIZE_EXCEEDED {
      return .failure(.responseTooLarge(limit: limit))
    }
    if code == CURLE_ABORTED_BY_CALLBACK, job.isCancelled { return .failure(.cancelled) }
    guard code == CURLE_OK else {
      let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : ""
      let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
      return .failure(Self.beforeSending.contains(code) ? .notSent(reason) : .failed(reason))
    }
    var status = 0
    guard reckon_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0
    else { return .failure(.failed("not an HTTP response")) }
    return .success(
      HTTPClientResponse(status: status, headers: transfer.headers, body: transfer.body))
  }

  /// The results curl gives only before any byte of the request went out.
  private static let beforeSending: Set<CURLcode> = [
    CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
    CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_UNSUPPORTED_PROTOCOL,
    CURLE_URL_MALFORMAT,
  ]

  /// The options for the request's method and body (curl copies the body).
  private func method(_ request: HTTPClientRequest) -> [CURLcode] {
    let method = request.method.uppercased()
    guard let body = request.body ?? (method == "PUT" || method == "POST" ? Data() : nil) else {
      return method == "GET"
        ? [reckon_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)]
        : [reckon_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)]
    }
    var codes = [
      reckon_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
    ]
    // A trailing zero so even an empty body has an address; curl copies `body.count` bytes.
    var bytes = [UInt8](body)
    bytes.append(0)
    codes.append(
      bytes.withUnsafeMutableBytes {
        reckon_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
      })
    if method != "POST" {
      codes.append(reckon_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
    }
    return codes
  }
}
