import Foundation

/// A statement parameter, sent to the server in PostgreSQL's binary format with its type, so
/// no value is ever spliced into SQL text and `$3 IS NULL` knows what `$3` is.
enum PostgresValue: Hashable, Sendable {
  case null(PostgresType)
  case integer(Int64)
  case double(Double)
  case text(String)
  case bytes(Data)
  case boolean(Bool)

  /// Text, or a NULL text for nil.
  static func optional(_ text: String?) -> PostgresValue { text.map { .text($0) } ?? .null(.text) }

  /// A whole number, or a NULL bigint for nil.
  static func optional(_ number: Int?) -> PostgresValue {
    number.map { .integer(Int64($0)) } ?? .null(.int8)
  }

  /// A time as seconds since 1970 (the state keeps times as SQLite does), or NULL for nil.
  static func optional(_ date: Date?) -> PostgresValue { date.map(Self.date) ?? .null(.float8) }

  /// Bytes, or a NULL bytea for nil.
  static func optional(_ bytes: Data?) -> PostgresValue {
    bytes.map { .bytes($0) } ?? .null(.bytea)
  }

  /// A time as seconds since 1970.
  static func date(_ date: Date) -> PostgresValue { .double(date.timeIntervalSince1970) }

  /// The type the server is told the parameter has.
  var type: PostgresType {
    switch self {
    case .null(let type): type
    case .integer: .int8
    case .double: .float8
    case .text: .text
    case .bytes: .bytea
    case .boolean: .bool
    }
  }

  /// The value in PostgreSQL's binary send format; nil for NULL.
  var binary: [UInt8]? {
    switch self {
    case .null: nil
    case .integer(let value): withUnsafeBytes(of: value.bigEndian, Array.init)
    case .double(let value): withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)
    case .text(let value): Array(value.utf8)
    case .bytes(let value): Array(value)
    case .boolean(let value): [value ? 1 : 0]
    }
  }
}

/// The built-in types Reckon's statements send and read, by their OIDs (`pg_type.oid`, fixed
/// for built-in types).
enum PostgresType: UInt32, Sendable {
  case bool = 16
  case bytea = 17
  case name = 19
  case int8 = 20
  case int2 = 21
  case int4 = 23
  case text = 25
  case oid = 26
  case float4 = 700
  case float8 = 701
  case varchar = 1043
  case jsonb = 3802
}
