import Foundation
import ReckonAppStore

/// Reads one member (found by `TransactionField.named`) of a decoded transaction object into `JWSTransactionDecodedPayload`, by the
/// same keys and conversions as its `Decodable` conformance; false for a key or value it does
/// not read plainly.
enum TransactionFields {
  static func read(
    _ field: TransactionField, _ scanner: inout JSONLineScanner,
    into transaction: inout JWSTransactionDecodedPayload, strings: inout StringTable
  ) -> Bool {
    // Assigned directly: key-path writes cost a generic call and several retains per field,
    // millions of times in a dry-run.
    switch field.kind {
    case .text:
      guard let text = strings.read(&scanner) else { return false }
      field.setText(text, in: &transaction)
    case .unique:
      guard let text = scanner.string() else { return false }
      field.setText(text, in: &transaction)
    case .date:
      guard let milliseconds = scanner.integer(),
        let date = NotificationLineDecoder.date(milliseconds)
      else { return false }
      field.setDate(date, in: &transaction)
    case .integer:
      guard let number = scanner.integer() else { return false }
      if field == .price {
        transaction.price = number
      } else {
        field.setInteger(Int(number), in: &transaction)
      }
    case .flag:
      guard let flag = scanner.bool() else { return false }
      transaction.isUpgraded = flag
    case .token:
      guard let raw = scanner.rawString(), let token = TransactionFields.uuid(raw) else {
        return false
      }
      transaction.appAccountToken = token
    }
    return true
  }

  /// `UUID(uuidString:)` without Foundation's parser: 8-4-4-4-12 hex digits, either case; nil
  /// for anything else (the general decoder then reports it).
  static func uuid(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard text.count == 36 else { return nil }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var position = 0
    while position < 36 {
      if position == 8 || position == 13 || position == 18 || position == 23 {
        guard text[position] == UInt8(ascii: "-") else { return nil }
        position += 1
        continue
      }
      guard let high = hex(text[position]), let low = hex(text[position + 1]) else { return nil }
      withUnsafeMutableBytes(of: &bytes) { $0[count] = high << 4 | low }
      count += 1
      position += 2
    }
    return UUID(uuid: bytes)
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
