import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSupport

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
    guard let (high, low) = UUIDText.bits(text, lowercaseOnly: false) else { return nil }
    let (h, l) = (high.bigEndian, low.bigEndian)
    return withUnsafeBytes(of: (h, l)) { bytes in
      UUID(uuid: bytes.load(as: uuid_t.self))
    }
  }
}
