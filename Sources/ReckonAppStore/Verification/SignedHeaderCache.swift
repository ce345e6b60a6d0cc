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
    lock.withLock { entries.first { $0.text.utf8.count == text.utf8.count && $0.text == text } }
  }

  /// Stores a header that was read in full.
  func store(_ entry: Entry) {
    lock.withLock {
      // Headers change rarely; a full cache means something unusual, so start over.
      if entries.count >= capacity { entries.removeAll() }
      entries.append(entry)
    }
  }
}
