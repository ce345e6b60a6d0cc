import Foundation

/// JWS headers already read, by their exact base64url text: the algorithm was ES256 and `x5c`
/// held three certificates whose first two parsed. Apple signs every notification and transaction
/// with the same few headers, kilobytes each (the certificates), and decoding and parsing one cost
/// more than a tenth of a webhook request. An entry is only the reading of those exact bytes;
/// every verification still checks the chain at the payload's signing time and the signature.
final class SignedHeaderCache: @unchecked Sendable {
  /// What a header says: the signing certificate and its intermediate.
  struct Entry {
    let text: String
    let leaf: X509Certificate
    let intermediate: X509Certificate
  }

  private let lock = NSLock()
  private let capacity: Int
  // Guarded by `lock`; few enough that a scan comparing lengths first beats hashing kilobytes.
  private var entries: [Entry] = []

  init(capacity: Int = 16) {
    self.capacity = capacity
  }

  /// The entry for a header with exactly this text, if one was stored.
  func entry(for text: String) -> Entry? {
    lock.withLock { entries.first { SignedHeaderCache.sameBytes($0.text, text) } }
  }

  /// Byte for byte: `==` on strings would also match canonically equivalent text, and comparing
  /// the UTF-8 views element by element is slow for kilobytes.
  private static func sameBytes(_ left: String, _ right: String) -> Bool {
    var left = left
    var right = right
    return left.withUTF8 { a in
      right.withUTF8 { b in
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
      }
    }
  }

  /// How many headers are remembered.
  var count: Int { lock.withLock { entries.count } }

  /// Stores a header that was read in full and whose chain verified.
  func store(_ entry: Entry) {
    lock.withLock {
      // Headers change rarely; a full cache means something unusual, so start over.
      if entries.count >= capacity { entries.removeAll() }
      entries.append(entry)
    }
  }
}
