import Foundation

/// The certificates a state holds, by id and by DER, as this process has read or written them.
/// A state's `certificates` rows are never changed or removed, so an id cached once stays true
/// for every process sharing the state. A backend caches only what a commit made durable: an id
/// from a transaction that then rolled back would point packed rows at nothing. Bounded: Apple
/// signs with a handful of certificates, and past `capacity` nothing more is remembered.
public final class CertificateCache: @unchecked Sendable {
  private let lock = NSLock()
  private var ids: [Data: Int64] = [:]
  private var certificates: [Int64: Data] = [:]
  private let capacity: Int

  /// An empty cache remembering at most `capacity` certificates.
  public init(capacity: Int = 256) {
    self.capacity = capacity
  }

  /// The id of the certificate `der`, when known.
  public func id(of der: Data) -> Int64? {
    lock.withLock { ids[der] }
  }

  /// The DER of the certificate `id`, when known.
  public func certificate(_ id: Int64) -> Data? {
    lock.withLock { certificates[id] }
  }

  /// Remembers that the state holds `der` under `id`.
  public func remember(_ der: Data, id: Int64) {
    lock.withLock {
      guard ids.count < capacity else { return }
      ids[der] = id
      certificates[id] = der
    }
  }
}
