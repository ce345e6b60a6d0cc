import Foundation
import ReckonAppStore
import ReckonEngine

/// Decodes one line of a requests file in Apple's decoded-notification shape (the transaction
/// decoded in place of `signedTransactionInfo`) straight from its bytes. It gives the same
/// `RefundRequest` as `RequestFile.decode`; anything it does not read plainly (escapes,
/// fractions, unknown keys) returns nil, and the caller decodes the line with `RequestFile`.
struct NotificationLineDecoder {
  private var strings: StringTable

  /// A decoder for many lines, sharing their repeated strings.
  init() { strings = StringTable() }

  /// A decoder for one notification, sharing nothing: the table would cost more to make than
  /// it saves.
  init(sharingStrings: Bool) { strings = StringTable(capacity: sharingStrings ? 4_096 : 0) }

  /// The request in `line`, received at its `signedDate`; nil to take the general path.
  mutating func decode(_ line: UnsafeBufferPointer<UInt8>) -> RefundRequest? {
    var scanner = JSONLineScanner(line)
    var notification = ResponseBodyV2DecodedPayload()
    // Filled in place: the payloads are large, and copying them per line showed in profiles.
    var transaction = JWSTransactionDecodedPayload()
    var hasTransaction = false
    // A key seen twice sends the line to the general decoder, which refuses it.
    var seen: UInt32 = 0
    let read = scanner.object { scanner, key in
      let member: Int
      switch key.bytes.count {
      case 16 where key.is("notificationType"): member = 0
      case 16 where key.is("notificationUUID"): member = 1
      case 7 where key.is("subtype"): member = 2
      case 7 where key.is("version"): member = 3
      case 10 where key.is("signedDate"): member = 4
      case 4 where key.is("data"): member = 5
      default: return false
      }
      guard NotificationLineDecoder.first(member, &seen) else { return false }
      if scanner.null() { return true }
      switch member {
      case 0: notification.rawNotificationType = strings.read(&scanner)
      case 1: notification.notificationUUID = scanner.string()
      case 2: notification.rawSubtype = strings.read(&scanner)
      case 3: notification.version = strings.read(&scanner)
      case 4:
        // Out of range goes to the general decoder, which reports the line.
        guard let date = scanner.integer().flatMap(NotificationLineDecoder.date) else {
          return false
        }
        notification.signedDate = date
      default:
        notification.data = NotificationData()
        return readData(
          &scanner, into: &notification.data!, transaction: &transaction,
          hasTransaction: &hasTransaction)
      }
      return true
    }
    // Compared as text: the same test as parsing the type, without `init(rawValue:)`'s switch.
    guard read, scanner.atEnd(),
      notification.rawNotificationType == NotificationType.consumptionRequest.rawValue,
      hasTransaction, let receivedAt = notification.signedDate
    else { return nil }
    return RefundRequest(
      notification: consume notification, transaction: consume transaction,
      receivedAt: receivedAt)
  }

  private mutating func readData(
    _ scanner: inout JSONLineScanner, into data: inout NotificationData,
    transaction: inout JWSTransactionDecodedPayload, hasTransaction: inout Bool
  ) -> Bool {
    var seen: UInt32 = 0
    return scanner.object { scanner, key in
      let member: Int
      switch key.bytes.count {
      case 11 where key.is("environment"): member = 0
      case 10 where key.is("appAppleId"): member = 1
      case 8 where key.is("bundleId"): member = 2
      case 13 where key.is("bundleVersion"): member = 3
      case 6 where key.is("status"): member = 4
      case 24 where key.is("consumptionRequestReason"): member = 5
      // Either name of the decoded transaction counts as one member.
      case 21 where key.is("signedTransactionInfo"), 15 where key.is("transactionInfo"):
        member = 6
      default: return false
      }
      guard NotificationLineDecoder.first(member, &seen) else { return false }
      if scanner.null() { return true }
      switch member {
      case 0:
        data.rawEnvironment = strings.read(&scanner)
        return data.rawEnvironment != nil
      case 1:
        data.appAppleId = scanner.integer()
        return data.appAppleId != nil
      case 2:
        data.bundleId = strings.read(&scanner)
        return data.bundleId != nil
      case 3:
        data.bundleVersion = strings.read(&scanner)
        return data.bundleVersion != nil
      case 4:
        data.rawStatus = scanner.integer().map { Int($0) }
        return data.rawStatus != nil
      case 5:
        data.rawConsumptionRequestReason = strings.read(&scanner)
        return data.rawConsumptionRequestReason != nil
      default:
        guard scanner.atObject() else { return false }
        transaction = JWSTransactionDecodedPayload()
        guard readTransaction(&scanner, into: &transaction) else { return false }
        hasTransaction = true
        return true
      }
    }
  }

  private mutating func readTransaction(
    _ scanner: inout JSONLineScanner, into transaction: inout JWSTransactionDecodedPayload
  ) -> Bool {
    var seen: UInt64 = 0
    return scanner.object { scanner, key in
      guard let field = TransactionField.named(key) else { return false }
      let bit: UInt64 = 1 << field.rawValue
      guard seen & bit == 0 else { return false }
      seen |= bit
      if scanner.null() { return true }
      return TransactionFields.read(field, &scanner, into: &transaction, strings: &strings)
    }
  }

  /// Whether `member` is seen for the first time in its object; marks it seen.
  private static func first(_ member: Int, _ seen: inout UInt32) -> Bool {
    let bit: UInt32 = 1 << member
    guard seen & bit == 0 else { return false }
    seen |= bit
    return true
  }

  /// Apple's UNIX milliseconds as `AppStoreJSON.decoder()` reads them; nil for a number that
  /// is no time, which that decoder refuses.
  static func date(_ milliseconds: Int64) -> Date? {
    AppStoreJSON.date(milliseconds: Double(milliseconds))
  }
}

/// Repeated short strings (bundle ids, product ids, enum names) shared rather than copied.
/// An open-addressed table of fixed size: no hashing through `Hasher`, no allocation once full.
struct StringTable {
  /// The longest string shared, in bytes.
  private static let longest = 48
  private var hashes: [UInt64]
  private var strings: [String?]
  /// Each slot's bytes, `longest` apart, and their count: compared in place of the string, which
  /// read through `withUTF8` was copied, a retain and a release per comparison.
  private var bytes: [UInt8]
  private var counts: [Int]

  /// A table of `capacity` slots (a power of two), or one that shares nothing when 0.
  init(capacity: Int = 4_096) {
    hashes = [UInt64](repeating: 0, count: capacity)
    strings = [String?](repeating: nil, count: capacity)
    bytes = [UInt8](repeating: 0, count: capacity * StringTable.longest)
    counts = [Int](repeating: 0, count: capacity)
  }

  /// The next value as a string, shared with an equal one read before when it is short.
  mutating func read(_ scanner: inout JSONLineScanner) -> String? {
    guard let raw = scanner.rawString() else { return nil }
    guard raw.count <= StringTable.longest, !strings.isEmpty, let base = raw.baseAddress else {
      return String(decoding: raw, as: UTF8.self)
    }
    let hash = StringTable.hash(raw)
    let mask = strings.count - 1
    var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
    // Probe a few slots; a full neighbourhood just means the string is not shared.
    for _ in 0..<8 {
      guard let candidate = strings[slot] else {
        let made = String(decoding: raw, as: UTF8.self)
        hashes[slot] = hash
        strings[slot] = made
        counts[slot] = raw.count
        bytes.withUnsafeMutableBufferPointer { stored in
          _ = UnsafeMutableBufferPointer(rebasing: stored[(slot * StringTable.longest)...])
            .initialize(from: raw)
        }
        return made
      }
      if hashes[slot] == hash, counts[slot] == raw.count,
        bytes.withUnsafeBufferPointer({ stored in
          ShortBytes.equal(stored.baseAddress! + slot * StringTable.longest, base, count: raw.count)
        })
      {
        return candidate
      }
      slot = (slot + 1) & mask
    }
    return String(decoding: raw, as: UTF8.self)
  }

  /// A hash of `raw` a word at a time.
  private static func hash(_ raw: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let base = UnsafeRawPointer(raw.baseAddress!)
    var hash = UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset + 8 <= raw.count {
      hash =
        (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash >> 29
      offset += 8
    }
    var tail: UInt64 = 0
    while offset < raw.count {
      tail = tail << 8 | UInt64(raw[offset])
      offset += 1
    }
    hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
    return hash ^ hash >> 32
  }
}
