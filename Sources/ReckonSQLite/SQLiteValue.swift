import Foundation

/// One SQLite value, by its storage class.
public enum SQLiteValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  /// The storage class's name, for messages.
  public var storageClass: String {
    switch self {
    case .null: "NULL"
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .blob: "BLOB"
    }
  }

  /// Text, or NULL for nil.
  public static func optional(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }

  /// A time as REAL seconds since 1970, or NULL for nil.
  public static func optional(_ date: Date?) -> SQLiteValue {
    date.map { .real($0.timeIntervalSince1970) } ?? .null
  }

  /// A whole number, or NULL for nil.
  public static func optional(_ number: Int?) -> SQLiteValue {
    number.map { .integer(Int64($0)) } ?? .null
  }

  /// A time as REAL seconds since 1970.
  public static func date(_ date: Date) -> SQLiteValue { .real(date.timeIntervalSince1970) }
}
