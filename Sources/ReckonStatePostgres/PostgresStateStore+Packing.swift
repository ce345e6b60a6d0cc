import Foundation
import ReckonState

extension PostgresStateStore {
  /// How `raw` is stored: packed, its certificates added to `certificates` (each in a statement
  /// of its own, before the caller's transaction, so the ids cached are committed), or as it is.
  func storedNotification(_ raw: Data, packed: PackedNotification?) throws(StateError) -> (
    bytes: Data, format: Int64
  ) {
    try PackedNotification.stored(raw, packed: packed) { der throws(StateError) in
      try certificateId(der)
    }
  }

  /// The notification as received, from a request row's `raw_notification` and `raw_format`.
  func receivedNotification(_ bytes: Data, format: Int64, requestId: Int64) throws(StateError)
    -> Data
  {
    try PackedNotification.received(bytes, format: format, what: "request \(requestId)") {
      id throws(StateError) in try certificate(id)
    }
  }

  /// The id of the certificate `der`, added to `certificates` if it is not there. The look-up
  /// is a statement of its own: one instance's insert that waited on another's sees that row
  /// only in a later statement.
  private func certificateId(_ der: Data) throws(StateError) -> Int64 {
    if let id = certificateCache.id(of: der) { return id }
    try connection.query(
      """
      INSERT INTO certificates (digest, der) VALUES (sha256($1), $1)
      ON CONFLICT (digest) DO NOTHING
      """, [.bytes(der)])
    guard
      let id = try connection.query(
        "SELECT id FROM certificates WHERE digest = sha256($1)", [.bytes(der)]
      ).first?.int(0)
    else { throw .unreadableRow(what: "a certificate", reason: "it was not kept when added") }
    if !connection.inTransaction { certificateCache.remember(der, id: id) }
    return id
  }

  /// The DER of the certificate `id`.
  private func certificate(_ id: Int64) throws(StateError) -> Data {
    if let der = certificateCache.certificate(id) { return der }
    guard
      let der = try connection.query(
        "SELECT der FROM certificates WHERE id = $1", [.integer(id)]
      ).first?.bytes(0)
    else { throw .unreadableRow(what: "certificate \(id)", reason: "no such certificate") }
    if !connection.inTransaction { certificateCache.remember(der, id: id) }
    return der
  }
}
