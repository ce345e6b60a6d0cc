import Foundation
import ReckonTestSupport

/// A blocking HTTP/1.1 keep-alive client on one loopback connection, for the webhook benchmark:
/// it writes one POST and reads exactly one response (by Content-Length).
final class WebhookBenchmarkClient {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let descriptor: Int32
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    guard let descriptor = LoopbackSocket.connect(port: port) else {
      throw Failure(description: "cannot connect to port \(port)")
    }
    self.descriptor = descriptor
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { close(descriptor) }

  /// POSTs `body` to `path` and returns the response status.
  func post(_ path: String, body: Data) throws -> Int {
    let head =
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    let request = Array(head.utf8) + Array(body)
    var sent = 0
    while sent < request.count {
      let count = request[sent...].withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw Failure(description: "send failed") }
      sent += count
    }
    return try readResponse()
  }

  private func readResponse() throws -> Int {
    while true {
      if let (status, length) = parsed() {
        buffer.removeFirst(length)
        return status
      }
      var chunk = [UInt8](repeating: 0, count: 16_384)
      let count = recv(descriptor, &chunk, chunk.count, 0)
      guard count > 0 else { throw Failure(description: "the server closed the connection") }
      buffer += chunk.prefix(count)
    }
  }

  /// The status and total length of a complete response at the start of the buffer.
  private func parsed() -> (Int, Int)? {
    guard buffer.count >= 4 else { return nil }
    var end: Int?
    for index in 0...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
      && buffer[index + 3] == 10
    {
      end = index
      break
    }
    guard let end else { return nil }
    let head = String(decoding: buffer[..<end], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
    let length =
      lines.first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
      ?? 0
    let total = end + 4 + length
    return buffer.count >= total ? (status, total) : nil
  }
}
