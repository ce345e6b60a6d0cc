import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Appends the stand-in's new requests to a file, one JSON object per line, after whatever the
/// file already holds (it may be something else given by mistake: nothing is truncated).
public final class StandInRecorder: @unchecked Sendable {
  /// Why the file cannot be recorded to.
  public struct Refused: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The system's reason.
    public let reason: String

    /// `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
  }

  /// The file recorded to.
  public let path: String
  /// The stand-in whose requests are recorded.
  public let standIn: AppStoreStandIn
  private let descriptor: Int32
  private let lock = NSLock()
  private var written = 0
  private var failed = false

  /// Opens `path` to append to (creating it, readable by this user only); refused when it
  /// cannot be written, before the stand-in listens.
  public init(path: String, standIn: AppStoreStandIn) throws(Refused) {
    self.path = path
    self.standIn = standIn
    // Bodies name transactions: for the operator's eyes only, as the state database is.
    descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw Refused(path: path, reason: String(cString: strerror(errno)))
    }
    // A file that does not end its last line would run it into the first record.
    if let last = Self.lastByte(of: path), last != UInt8(ascii: "\n") {
      _ = Self.writeAll(Data("\n".utf8), to: descriptor)
    }
  }

  private static func lastByte(of path: String) -> UInt8? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let end = try? handle.seekToEnd(), end > 0 else { return nil }
    try? handle.seek(toOffset: end - 1)
    return (try? handle.read(upToCount: 1))?.first
  }

  deinit { close(descriptor) }

  /// Appends the requests that came since the last flush; the first write that fails stops
  /// the recording and is returned (once), as a sentence.
  public func flush() -> String? {
    lock.withLock {
      let requests = standIn.requests
      guard requests.count > written else { return nil }
      var lines = Data()
      for request in requests[written...] { lines.append(Self.line(request)) }
      written = requests.count
      guard !failed, !Self.writeAll(lines, to: descriptor) else { return nil }
      failed = true
      return "\(path): \(String(cString: strerror(errno))); requests are no longer recorded"
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
    data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let wrote = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if wrote < 0, errno == EINTR { continue }
        guard wrote > 0 else { return false }
        offset += wrote
      }
      return true
    }
  }

  private static func line(_ request: StandInRequest) -> Data {
    var object: [String: Any] = [
      "method": request.method, "path": request.path, "status": request.status,
      "body": String(decoding: request.body, as: UTF8.self),
      "receivedAt": ISO8601DateFormatter().string(from: request.receivedAt),
    ]
    if let id = request.transactionId { object["transactionId"] = id }
    if let problem = request.problem { object["problem"] = problem }
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return data + Data("\n".utf8)
  }
}
