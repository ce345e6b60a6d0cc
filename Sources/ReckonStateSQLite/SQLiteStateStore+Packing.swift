import Foundation
import ReckonState

extension SQLiteStateStore {
  /// How `raw` is stored: packed, its certificates added to `certificates` (each in a commit of
  /// its own, before the caller's transaction, so the ids cached are durable), or as it is.
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

  /// `alias.raw_format`, or 0 in a file older than `StateSchema.packedRows` read as it is.
  func rawFormat(_ alias: String) -> String {
    readVersion < StateSchema.packedRows ? "0" : "\(alias).raw_format"
  }

  /// `alias.json_format`, or 0 in a file older than `StateSchema.packedRows` read as it is.
  func jsonFormat(_ alias: String) -> String {
    readVersion < StateSchema.packedRows ? "0" : "\(alias).json_format"
  }

  /// The id of the certificate `der`, added to `certificates` if it is not there.
  private func certificateId(_ der: Data) throws(StateError) -> Int64 {
    if let id = certificateCache.id(of: der) { return id }
    try connection.query("INSERT OR IGNORE INTO certificates (der) VALUES (?)", [.blob(der)])
    guard
      let id = try connection.query("SELECT id FROM certificates WHERE der = ?", [.blob(der)])
        .first?.int(0)
    else { throw .unreadableRow(what: "a certificate", reason: "it was not kept when added") }
    if connection.isAutocommit { certificateCache.remember(der, id: id) }
    return id
  }

  /// The DER of the certificate `id`.
  private func certificate(_ id: Int64) throws(StateError) -> Data {
    if let der = certificateCache.certificate(id) { return der }
    guard
      let der = try connection.query("SELECT der FROM certificates WHERE id = ?", [.integer(id)])
        .first?.blob(0)
    else { throw .unreadableRow(what: "certificate \(id)", reason: "no such certificate") }
    if connection.isAutocommit { certificateCache.remember(der, id: id) }
    return der
  }
}
