import Foundation

/// Compact JSON text written directly into bytes, matching what `JSONEncoder` with `.sortedKeys`
/// writes for the same values (callers give object keys in sorted order). Decision records are
/// written on every webhook request, and `JSONEncoder`'s generic, reflective encoding was the
/// largest single cost of the request path.
package struct JSONTextWriter {
  /// The text so far.
  private(set) var bytes: [UInt8] = []
  /// Whether `/` is written as `\/`, as `JSONEncoder` does unless told `.withoutEscapingSlashes`.
  package let escapesSlashes: Bool
  // One entry per open object or array: whether a value was already written in it.
  private var written: [Bool] = []

  package init(escapesSlashes: Bool = true, capacity: Int = 1_024) {
    self.escapesSlashes = escapesSlashes
    bytes.reserveCapacity(capacity)
  }

  /// The text as `Data`.
  package var data: Data { Data(bytes) }

  /// How many bytes are written so far: where the next value begins, once `key(_:)` is written.
  package var count: Int { bytes.count }

  /// The bytes written in `range`, as `Data`.
  package func data(in range: Range<Int>) -> Data { Data(bytes[range]) }

  package mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    written.append(false)
  }

  package mutating func endObject() {
    written.removeLast()
    bytes.append(UInt8(ascii: "}"))
  }

  package mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    written.append(false)
  }

  package mutating func endArray() {
    written.removeLast()
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes `"name":`; the value written next belongs to it.
  package mutating func key(_ name: String) {
    separate()
    quoted(name)
    bytes.append(UInt8(ascii: ":"))
    // The value that follows needs no comma of its own.
    written[written.count - 1] = false
  }

  package mutating func string(_ value: String) {
    separate()
    quoted(value)
  }

  package mutating func int(_ value: Int) {
    separate()
    bytes.append(contentsOf: String(value).utf8)
  }

  package mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  package mutating func null() {
    separate()
    bytes.append(contentsOf: "null".utf8)
  }

  /// Any JSON value, an object's keys in sorted order; a number that is not finite as `null`,
  /// which is what JSON can say of it.
  package mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .integer(let number): int(number)
    case .number(let number):
      guard number.isFinite else { return null() }
      separate()
      bytes.append(contentsOf: "\(number)".utf8)
    case .string(let text): string(text)
    case .array(let values):
      beginArray()
      for element in values { self.value(element) }
      endArray()
    case .object(let members):
      beginObject()
      for (name, member) in members.sorted(by: { $0.key < $1.key }) {
        key(name)
        self.value(member)
      }
      endObject()
    }
  }

  /// `"name":"value"`, left out when `value` is nil (as synthesized `Encodable` leaves out nil).
  package mutating func field(_ name: String, _ value: String?) {
    guard let value else { return }
    key(name)
    string(value)
  }

  /// `"name":value`, left out when `value` is nil.
  package mutating func field(_ name: String, _ value: Int?) {
    guard let value else { return }
    key(name)
    int(value)
  }

  /// `"name":value`, left out when `value` is nil.
  package mutating func field(_ name: String, _ value: Bool?) {
    guard let value else { return }
    key(name)
    bool(value)
  }

  /// `"name":[…]` of strings, left out when `values` is nil.
  package mutating func field(_ name: String, _ values: [String]?) {
    guard let values else { return }
    key(name)
    beginArray()
    for value in values { string(value) }
    endArray()
  }

  /// `"name":{…}` of strings with sorted keys.
  package mutating func field(_ name: String, _ values: [String: String]) {
    key(name)
    beginObject()
    for (entry, value) in values.sorted(by: { $0.key < $1.key }) { field(entry, value) }
    endObject()
  }

  private mutating func separate() {
    guard let last = written.last else { return }
    if last { bytes.append(UInt8(ascii: ",")) } else { written[written.count - 1] = true }
  }

  private mutating func quoted(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    // Most text needs no escape: checked and copied in one run over its contiguous bytes, which
    // costs a fraction of iterating the UTF-8 view.
    var text = text
    let plain = text.withUTF8 { run in
      guard !run.contains(where: needsEscape) else { return false }
      bytes.append(contentsOf: run)
      return true
    }
    if plain {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case UInt8(ascii: "/") where escapesSlashes:
        bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      || (escapesSlashes && byte == UInt8(ascii: "/"))
  }
}
