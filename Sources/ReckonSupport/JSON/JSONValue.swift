import Foundation

/// Any JSON value, keeping the distinctions a strict server makes (Bool vs number, integer vs
/// fraction, null vs absent) that decoding straight into a typed body would blur or reject whole.
public enum JSONValue: Codable, Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([String: JSONValue].self) {
      self = .object(value)
    } else {
      self = .array(try container.decode([JSONValue].self))
    }
  }

  /// Whether the value is `true` or `false`.
  public var isBool: Bool {
    if case .bool = self { true } else { false }
  }

  /// Encodes the value back as the JSON it came from.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// Parses a JSON document.
  public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
    var parser = JSONParser(data)
    return try parser.parseDocument()
  }

  /// The members, when the value is an object.
  public var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { members } else { nil }
  }

  /// The text, when the value is a string.
  public var stringValue: String? {
    if case .string(let text) = self { text } else { nil }
  }
}
