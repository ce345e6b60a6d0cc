import CSQLite
import Foundation

/// A value bound to or read from SQLite.
enum SQLiteValue: Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  static func optional(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }
  static func optional(_ date: Date?) -> SQLiteValue {
    date.map { .real($0.timeIntervalSince1970) } ?? .null
  }
  static func optional(_ number: Int?) -> SQLiteValue {
    number.map { .integer(Int64($0)) } ?? .null
  }
  static func date(_ date: Date) -> SQLiteValue { .real(date.timeIntervalSince1970) }
}

/// One result row, by column index.
struct SQLiteRow {
  let values: [SQLiteValue]

  func int(_ index: Int) -> Int64? {
    switch values[index] {
    case .integer(let value): value
    case .real(let value): Int64(value)
    default: nil
    }
  }

  func double(_ index: Int) -> Double? {
    switch values[index] {
    case .integer(let value): Double(value)
    case .real(let value): value
    default: nil
    }
  }

  func date(_ index: Int) -> Date? { double(index).map { Date(timeIntervalSince1970: $0) } }

  func text(_ index: Int) -> String? {
    switch values[index] {
    case .text(let value): value
    case .blob(let data): String(decoding: data, as: UTF8.self)
    default: nil
    }
  }

  func blob(_ index: Int) -> Data? {
    switch values[index] {
    case .blob(let data): data
    case .text(let value): Data(value.utf8)
    default: nil
    }
  }
}

/// A prepared statement, reused across calls.
final class SQLiteStatement {
  private let pointer: OpaquePointer
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  init(_ pointer: OpaquePointer) {
    self.pointer = pointer
  }

  func bind(_ values: [SQLiteValue]) throws(StateDatabaseError) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .null: code = sqlite3_bind_null(pointer, index)
      case .integer(let number): code = sqlite3_bind_int64(pointer, index, number)
      case .real(let number): code = sqlite3_bind_double(pointer, index, number)
      case .text(let text): code = sqlite3_bind_text(pointer, index, text, -1, Self.transient)
      case .blob(let data):
        code = data.withUnsafeBytes {
          sqlite3_bind_blob(pointer, index, $0.baseAddress, Int32($0.count), Self.transient)
        }
      }
      guard code == SQLITE_OK else {
        throw .statementFailed(sql: "bind #\(index)", message: "code \(code)")
      }
    }
  }

  func step() -> Int32 { sqlite3_step(pointer) }

  func row() -> SQLiteRow {
    let count = sqlite3_column_count(pointer)
    var values: [SQLiteValue] = []
    values.reserveCapacity(Int(count))
    for column in 0..<count {
      switch sqlite3_column_type(pointer, column) {
      case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(pointer, column)))
      case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(pointer, column)))
      case SQLITE_TEXT: values.append(.text(String(cString: sqlite3_column_text(pointer, column))))
      case SQLITE_BLOB:
        let length = Int(sqlite3_column_bytes(pointer, column))
        let bytes = sqlite3_column_blob(pointer, column)
        values.append(.blob(bytes.map { Data(bytes: $0, count: length) } ?? Data()))
      default: values.append(.null)
      }
    }
    return SQLiteRow(values: values)
  }

  func reset() {
    sqlite3_reset(pointer)
    sqlite3_clear_bindings(pointer)
  }

  func finalize() { sqlite3_finalize(pointer) }
}
