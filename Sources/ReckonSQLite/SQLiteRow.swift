import Foundation

/// One result row, read by column index with the conversions SQLite's storage classes allow.
public struct SQLiteRow: Sendable {
  /// The columns, in order.
  public let values: [SQLiteValue]

  /// Creates a row from its values.
  public init(values: [SQLiteValue]) {
    self.values = values
  }

  /// An INTEGER (or REAL truncated) column.
  public func int(_ index: Int) -> Int64? {
    switch values[index] {
    case .integer(let value): value
    case .real(let value): value.isFinite && abs(value) < 9e18 ? Int64(value) : nil
    default: nil
    }
  }

  /// A REAL or INTEGER column.
  public func double(_ index: Int) -> Double? {
    switch values[index] {
    case .integer(let value): Double(value)
    case .real(let value): value
    default: nil
    }
  }

  /// A time stored as REAL seconds since 1970.
  public func date(_ index: Int) -> Date? { double(index).map { Date(timeIntervalSince1970: $0) } }

  /// A TEXT (or BLOB as UTF-8) column.
  public func text(_ index: Int) -> String? {
    switch values[index] {
    case .text(let value): value
    case .blob(let data): String(decoding: data, as: UTF8.self)
    default: nil
    }
  }

  /// A BLOB (or TEXT as UTF-8) column.
  public func blob(_ index: Int) -> Data? {
    switch values[index] {
    case .blob(let data): data
    case .text(let value): Data(value.utf8)
    default: nil
    }
  }
}
