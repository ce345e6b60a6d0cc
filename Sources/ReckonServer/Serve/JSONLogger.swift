import Foundation
import ReckonEngine
import ReckonSupport

/// Writes one JSON object per line (`time`, `level`, `event`, `message`, and any fields, numbers
/// as JSON numbers) to a sink, standard error by default. A line written while a request is
/// handled (or its reply sent) carries `RequestLogContext.current`'s fields too, so every line
/// of one request shares its `correlationId`. Events never carry the App Store key or a token.
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
    log(event.level, event: event.name, event.description, values: event.fields)
  }

  /// Logs a message with extra text fields.
  public func log(
    _ level: String, event: String, _ message: String, fields: [String: String] = [:]
  ) {
    log(level, event: event, message, values: fields.mapValues(JSONValue.string))
  }

  /// Logs a message with extra fields of any JSON type; the event's own fields win over the
  /// request's where both name one.
  public func log(
    _ level: String, event: String, _ message: String, values fields: [String: JSONValue]
  ) {
    var object = RequestLogContext.current?.fields ?? [:]
    object.merge(fields) { _, own in own }
    // To the millisecond: a burst of requests in one second must keep its order in the log.
    object["time"] = .string(Date().formatted(.iso8601WithMilliseconds))
    object["level"] = .string(level)
    object["event"] = .string(event)
    object["message"] = .string(message)
    var writer = JSONTextWriter(escapesSlashes: false, capacity: 256)
    writer.value(.object(object))
    write(String(decoding: writer.data, as: UTF8.self) + "\n")
  }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
  /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-30T23:29:50.123Z`.
  static var iso8601WithMilliseconds: Date.ISO8601FormatStyle {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  }
}
