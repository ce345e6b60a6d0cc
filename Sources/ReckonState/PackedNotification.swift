import Foundation

/// A notification as a state stores it. A signed notification is mostly the same certificates
/// over and over: the outer JWS's x5c chain, then the chains of the JWS nested in its payload
/// (`signedTransactionInfo`, `signedRenewalInfo`), each base64 inside base64url, some twice.
/// Packing takes every x5c certificate out (a backend stores each distinct one once, and the
/// packed form refers to it by id), keeps every JWS part decoded rather than as base64url, and
/// compresses the rest; unpacking re-encodes it all and gives back the bytes received, byte for
/// byte (packing checks that it does before it offers a packed form).
public struct PackedNotification: Sendable {
  /// The certificates (DER) taken out, in the order the template refers to them.
  public let certificates: [Data]
  /// The segments, as `Segment` describes; certificates referred to by index.
  let template: [UInt8]
  /// The template compressed, as format 2 stores it after the certificates' ids: made with the
  /// packing, so a backend need not compress while it holds its lock.
  let compressedTemplate: Data

  /// The format a packed row is in, as a backend records it beside the row: 0 is the bytes as
  /// received; 1 (rows from before) the certificates' ids and the template, deflated together;
  /// 2 the ids, then the template compressed with zstd.
  public static let format: Int64 = 2

  /// `raw` packed, or nil when it holds no JWS to unpick or would not read back exactly.
  public init?(_ raw: Data) {
    var packer = NotificationPacker()
    packer.text(ArraySlice(raw), depth: 0)
    packer.flush()
    guard packer.packedAny,
      NotificationTemplate.expand(
        packer.template, certificates: packer.certificates, expectedCount: raw.count)
        == [UInt8](raw)
    else { return nil }
    certificates = packer.certificates
    template = packer.template
    compressedTemplate = Zstandard.compress(Data(packer.template))
  }

  /// The bytes a backend stores, with `ids` its ids of `certificates`, in order.
  public func stored(ids: [Int64]) -> Data {
    precondition(ids.count == certificates.count, "an id for each certificate")
    var bytes = Data()
    VarInt.append(UInt64(ids.count), to: &bytes)
    for id in ids { VarInt.append(UInt64(id), to: &bytes) }
    return bytes + compressedTemplate
  }

  /// How a backend stores `raw`: packed, with the id `certificateId` gives each certificate it
  /// takes out, when that is smaller; otherwise as it is. The format goes beside the bytes.
  public static func stored(
    _ raw: Data, certificateId: (Data) throws(StateError) -> Int64
  ) throws(StateError) -> (bytes: Data, format: Int64) {
    try stored(raw, packed: PackedNotification(raw), certificateId: certificateId)
  }

  /// How a backend stores `raw`, as `stored(_:certificateId:)` says, with `packed` the
  /// notification packed beforehand (nil when it does not pack).
  public static func stored(
    _ raw: Data, packed: PackedNotification?, certificateId: (Data) throws(StateError) -> Int64
  ) throws(StateError) -> (bytes: Data, format: Int64) {
    guard let packed, packed.compressedTemplate.count < raw.count else { return (raw, 0) }
    var ids: [Int64] = []
    for der in packed.certificates { ids.append(try certificateId(der)) }
    let bytes = packed.stored(ids: ids)
    return bytes.count < raw.count ? (bytes, format) : (raw, 0)
  }

  /// The notification as received, from a row stored in `format` (0: as it is); `certificate`
  /// gives the DER of a certificate's id. `what` names the row in an error.
  public static func received(
    _ bytes: Data, format: Int64, what: @autoclosure () -> String,
    certificate: (Int64) throws(StateError) -> Data
  ) throws(StateError) -> Data {
    let ids: [Int64]
    let template: Data
    switch format {
    case 0: return bytes
    case 1:
      let plain = try Deflated.decompress(bytes, what: what())
      guard plain.first == UInt8(format) else {
        throw .unreadableRow(what: what(), reason: "its packed header is damaged")
      }
      var offset = plain.index(after: plain.startIndex)
      ids = try certificateIds(plain, at: &offset, what: what())
      template = plain[offset...]
    case Self.format:
      var offset = bytes.startIndex
      ids = try certificateIds(bytes, at: &offset, what: what())
      template = try Zstandard.decompress(bytes[offset...], what: what())
    default:
      throw .unreadableRow(
        what: what(), reason: "its format \(format) is not one this Reckon reads")
    }
    var certificates: [Data] = []
    for id in ids { certificates.append(try certificate(id)) }
    guard let expanded = NotificationTemplate.expand(template, certificates: certificates) else {
      throw .unreadableRow(what: what(), reason: "its packed segments are damaged")
    }
    return Data(expanded)
  }

  /// The count of certificate ids at `offset` in `bytes`, then the ids, moving past them.
  private static func certificateIds(
    _ bytes: Data, at offset: inout Data.Index, what: @autoclosure () -> String
  ) throws(StateError) -> [Int64] {
    guard let count = VarInt.read(bytes, at: &offset), count <= bytes.count else {
      throw .unreadableRow(what: what(), reason: "its packed header is damaged")
    }
    var ids: [Int64] = []
    for _ in 0..<count {
      guard let id = VarInt.read(bytes, at: &offset), let id = Int64(exactly: id) else {
        throw .unreadableRow(what: what(), reason: "its certificate ids are damaged")
      }
      ids.append(id)
    }
    return ids
  }
}
