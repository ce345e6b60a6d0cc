import Foundation
import ReckonHTTP

/// A blocking HTTP/1.1 keep-alive client on one loopback connection, for the webhook benchmark:
/// it writes one request and reads exactly one response (by Content-Length).
final class WebhookBenchmarkClient {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let connection: LoopbackConnection
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    connection = try LoopbackConnection(port: port, noDelay: true)
  }

  /// POSTs `body` to `path` and returns the response status.
  func post(_ path: String, body: Data) throws -> Int {
    let head =
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    guard connection.send(Array(head.utf8) + Array(body)) else {
      throw Failure(description: "send failed")
    }
    return try readResponse()
  }

  /// GETs `path` and returns the response status.
  func get(_ path: String) throws -> Int {
    guard connection.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)) else {
      throw Failure(description: "send failed")
    }
    return try readResponse()
  }

  private func readResponse() throws -> Int {
    while true {
      if let (status, length) = parsed() {
        buffer.removeFirst(length)
        return status
      }
      guard case .bytes(let chunk) = connection.receive(maximum: 16_384) else {
        throw Failure(description: "the server closed the connection")
      }
      buffer += chunk
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
