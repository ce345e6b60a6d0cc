import Foundation
import ReckonEngine

/// Writes one JSON object per line (`time`, `level`, `event`, `message`, and any fields) to a
/// sink, standard error by default. Events never carry the App Store key or a token.
public struct JSONLogger: Sendable {
  private let write: @Sendable (String) -> Void

  /// A logger writing each line to `write`; by default to standard error.
  public init(write: @escaping @Sendable (String) -> Void = JSONLogger.standardError) {
    self.write = write
  }

  /// Writes `line` to standard error. A line that cannot be written (a full disk under a log
  /// file, a file-size limit) is dropped: `FileHandle.write(_:)` would trap and take the server
  /// down with it, when the webhook should go on answering (500 if the state cannot be written).
  public static let standardError: @Sendable (String) -> Void = { line in
    try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
  }

  /// Logs one event.
  public func log(_ event: ReckonEvent) {
    log(event.level, event: event.name, event.description, fields: event.fields)
  }

  /// Logs a message with extra fields.
  public func log(
    _ level: String, event: String, _ message: String, fields: [String: String] = [:]
  ) {
    var object = fields
    // To the millisecond: a burst of requests in one second must keep its order in the log.
    object["time"] = Date().formatted(.iso8601WithMilliseconds)
    object["level"] = level
    object["event"] = event
    object["message"] = message
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(object) else { return }
    write(String(decoding: data, as: UTF8.self) + "\n")
  }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
  /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-30T23:29:50.123Z`.
  static var iso8601WithMilliseconds: Date.ISO8601FormatStyle {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  }
}
