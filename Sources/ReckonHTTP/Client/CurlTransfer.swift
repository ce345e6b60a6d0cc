import CCurl
import Foundation

/// What one transfer has received so far. curl's C callbacks reach it through the unretained
/// pointer passed as their context; the worker holds it until the transfer ends.
final class CurlTransfer {
  let limit: Int
  let job: CurlJob
  private(set) var body = Data()
  private(set) var headers: [String: String] = [:]
  /// The server sent more than `limit` bytes of body; the transfer was aborted.
  private(set) var overflowed = false

  init(limit: Int, job: CurlJob) {
    self.limit = limit
    self.job = job
  }

  /// Appends body bytes, or refuses them (aborting the transfer) past the limit.
  func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard body.count + bytes.count <= limit else {
      overflowed = true
      return false
    }
    body.append(contentsOf: bytes)
    return true
  }

  /// Records one header line; a status line starts over, so only the final response's fields
  /// remain (after a `100 Continue`, say).
  func receiveHeader(_ line: String) {
    if line.hasPrefix("HTTP/") {
      headers = [:]
      return
    }
    guard let colon = line.firstIndex(of: ":") else { return }
    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
    headers[name] = line[line.index(after: colon)...].trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
  }

  /// CURLOPT_WRITEFUNCTION: returning less than was offered makes curl fail the transfer.
  static let writeCallback: reckon_curl_data_callback = { data, size, count, context in
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return CurlTransfer.from(context).receive(bytes) ? size * count : 0
  }

  /// CURLOPT_HEADERFUNCTION: one whole header line per call.
  static let headerCallback: reckon_curl_data_callback = { data, size, count, context in
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    CurlTransfer.from(context).receiveHeader(String(decoding: bytes, as: UTF8.self))
    return size * count
  }

  /// CURLOPT_XFERINFOFUNCTION: curl calls it about once a second and on activity, so a
  /// cancelled caller's transfer stops soon.
  static let progressCallback: reckon_curl_progress_callback = { context, _, _, _, _ in
    CurlTransfer.from(context).job.isCancelled ? 1 : 0
  }
}
