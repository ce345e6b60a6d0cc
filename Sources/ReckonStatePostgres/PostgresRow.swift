import Foundation

/// One row of a result, decoded from PostgreSQL's binary format by each column's type.
struct PostgresRow: Sendable {
  /// A column's value.
  enum Cell: Hashable, Sendable {
    case integer(Int64)
    case double(Double)
    case text(String)
    case bytes(Data)
    case boolean(Bool)
  }

  /// The row's cells in column order; nil for NULL.
  let cells: [Cell?]

  /// A whole-number column (a boolean reads as 0 or 1).
  func int(_ index: Int) -> Int64? {
    switch cells[index] {
    case .integer(let value): value
    case .boolean(let value): value ? 1 : 0
    case .double(let value): Int64(exactly: value)
    default: nil
    }
  }

  /// A floating-point column (a whole number reads as itself).
  func double(_ index: Int) -> Double? {
    switch cells[index] {
    case .double(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }

  /// A time kept as seconds since 1970.
  func date(_ index: Int) -> Date? { double(index).map { Date(timeIntervalSince1970: $0) } }

  /// A text column.
  func text(_ index: Int) -> String? {
    if case .text(let value) = cells[index] { return value }
    return nil
  }

  /// A bytea column.
  func bytes(_ index: Int) -> Data? {
    if case .bytes(let value) = cells[index] { return value }
    return nil
  }

  /// A boolean column.
  func bool(_ index: Int) -> Bool? {
    if case .boolean(let value) = cells[index] { return value }
    return nil
  }

  /// Decodes a binary-format cell of `type`; nil for a type Reckon's statements never read.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, type: UInt32) -> Cell? {
    func bigEndian<T: FixedWidthInteger>(_: T.Type) -> T? {
      guard bytes.count == MemoryLayout<T>.size else { return nil }
      return bytes.reduce(T.zero) { ($0 << 8) | T($1) }
    }
    switch PostgresType(rawValue: type) {
    case .int8: return bigEndian(Int64.self).map { .integer($0) }
    case .int4, .oid: return bigEndian(Int32.self).map { .integer(Int64($0)) }
    case .int2: return bigEndian(Int16.self).map { .integer(Int64($0)) }
    case .float8: return bigEndian(UInt64.self).map { .double(Double(bitPattern: $0)) }
    case .float4: return bigEndian(UInt32.self).map { .double(Double(Float(bitPattern: $0))) }
    case .text, .varchar, .name: return .text(String(decoding: bytes, as: UTF8.self))
    // jsonb's binary form is a version byte (1) and the JSON text.
    case .jsonb: return .text(String(decoding: bytes.dropFirst(), as: UTF8.self))
    case .bytea: return .bytes(Data(bytes))
    case .bool: return .boolean(bytes.first == 1)
    case nil: return nil
    }
  }
}
