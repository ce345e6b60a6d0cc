import Foundation
import ReckonAppStore
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonState

/// A notification packed for storage reads back byte for byte, whatever its shape: packing takes
/// out what it recognises and leaves the rest as it was.
struct PackedNotificationTests {
  /// The ids a test backend gives certificates: their position, from 1.
  static func unpacked(_ raw: Data) throws -> Data {
    var held: [Data] = []
    let stored = try PackedNotification.stored(raw) { der throws(StateError) in
      held.append(der)
      return Int64(held.count)
    }
    return try PackedNotification.received(stored.bytes, format: stored.format, what: "a test") {
      id throws(StateError) in held[Int(id) - 1]
    }
  }

  @Test func anAppleSignedNotificationKeepsEachCertificateOnceAndReadsBackExactly() throws {
    let shaped = try AppleShapedNotification()
    let raw = try shaped.body(SimulatedNotification())
    let packed = try #require(PackedNotification(raw))
    #expect(packed.certificates == shaped.chain.map(\.der))
    let stored = packed.stored(ids: [1, 2, 3])
    #expect(stored.count * 8 < raw.count, "\(stored.count) of \(raw.count) bytes")
    #expect(try Self.unpacked(raw) == raw)
  }

  @Test func aNotificationSignedByTheLocalAuthorityReadsBackExactly() throws {
    let raw = try SimulatedNotification().body(signedBy: LocalCertificateAuthority())
    #expect(PackedNotification(raw)?.certificates.count == 3)
    #expect(try Self.unpacked(raw) == raw)
  }

  /// Bodies packing must not change: spaces, escapes and parts that are not canonical.
  static let oddBodies: [String] = [
    #"{ "signedPayload" : "\#(jws(header: #"{"alg":"ES256","x5c":[ "AAEC" , "AAEC" ]}"#))" }"#,
    #"{"signedPayload":"\#(jws(header: #"{"x5c":["AAEC\/"],"alg":"ES256"}"#))"}"#,
    #"{"signedPayload":"\#(jws(header: #"{"alg":"ES256","x5c":["AAE="]}"#))"}"#,
    #"{"signedPayload":"\#(jws(header: #"{"alg":"ES256"}"#))","x":"a\"b.c.d"}"#,
    #"{"signedPayload":"\#(jws(header: #"{"alg":"ES256","x5c":["AAEC"]}"#))AB"}"#,
    #"{"signedPayload":"eyJ.e30.AA"}"#,
    #"{"signedPayload":"1.2.3", "unterminated"#,
  ]

  @Test(arguments: oddBodies)
  func anUnusualBodyReadsBackExactly(_ body: String) throws {
    let raw = Data(body.utf8)
    #expect(try Self.unpacked(raw) == raw)
  }

  /// Bodies damaged at random (a byte changed to one that matters to the scan, or cut short)
  /// still read back exactly: packing keeps literal whatever it does not recognise.
  @Test func aDamagedBodyReadsBackExactly() throws {
    let body = try [UInt8](SimulatedNotification().body(signedBy: LocalCertificateAuthority()))
    var random = SplitMix64(seed: 28)
    let replacements = Array(#"".\[],:=+/-_ {}A0"#.utf8)
    for _ in 0..<300 {
      var damaged = body
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        damaged[Int.random(in: 0..<damaged.count, using: &random)] =
          replacements.randomElement(using: &random) ?? 0
      }
      if Bool.random(using: &random) {
        damaged.removeLast(Int.random(in: 0..<damaged.count, using: &random))
      }
      let raw = Data(damaged)
      #expect(try Self.unpacked(raw) == raw)
    }
  }

  /// A string with escapes before the JWS (an escaped quote and dots in it) does not hide the
  /// JWS from packing, nor does one after it.
  @Test(arguments: [
    #"{"x":"a\".b.c\"","signedPayload":"\#(jws(header: #"{"alg":"ES256","x5c":["AAEC"]}"#))"}"#,
    #"{"x":"\\","signedPayload":"\#(jws(header: #"{"alg":"ES256","x5c":["AAEC"]}"#))","y":"\""}"#,
  ])
  func aJWSAfterAnEscapedStringIsStillPacked(_ body: String) throws {
    let raw = Data(body.utf8)
    #expect(PackedNotification(raw)?.certificates == [Data([0, 1, 2])])
    #expect(try Self.unpacked(raw) == raw)
  }

  @Test func aBodyWithoutAJWSIsStoredAsItIs() throws {
    let raw = Data(#"{"notificationType":"CONSUMPTION_REQUEST","data":{"bundleId":"1.2.3"}}"#.utf8)
    #expect(PackedNotification(raw) == nil)
    let stored = try PackedNotification.stored(raw) { _ throws(StateError) in 1 }
    #expect(stored.format == 0 && stored.bytes == raw)
  }

  @Test func damagedStoredBytesAreRefusedNotMisread() throws {
    let raw = try SimulatedNotification().body(signedBy: LocalCertificateAuthority())
    let packed = try #require(PackedNotification(raw)).stored(ids: [1, 2, 3])
    var damaged = packed
    damaged[damaged.count / 2] ^= 0xFF
    let error = #expect(throws: StateError.self) {
      try PackedNotification.received(damaged, format: PackedNotification.format, what: "request 7")
      {
        _ throws(StateError) in
        Data()
      }
    }
    #expect(error?.description.hasPrefix("request 7 in the state database cannot be read") == true)
  }

  @Test func aDecisionsFactsAndExplanationReadBackAsWritten() throws {
    let facts = Data(#"[{"name":"reason","source":"notification","value":"OTHER"}]"#.utf8)
    let explanation = Data(
      #"{"facts":[{"name":"reason","source":"notification","value":"OTHER"}],"rule":"r"}"#.utf8)
    let written = DecisionJSON(facts: facts, explanation: explanation)
    let stored = written.stored
    #expect(stored.facts != facts)
    #expect(try stored.written(format: DecisionJSON.format, decisionId: 1) == written)
    #expect(try written.written(format: 0, decisionId: 1) == written)
    let bare = DecisionJSON(facts: facts, explanation: nil)
    #expect(try bare.stored.written(format: DecisionJSON.format, decisionId: 1) == bare)
  }

  /// Rows stored in format 1, deflated before states compressed with zstd, still read back.
  @Test func aNotificationPackedAndDeflatedAsBeforeReadsBackExactly() throws {
    let raw = try SimulatedNotification().body(signedBy: LocalCertificateAuthority())
    let packed = try #require(PackedNotification(raw))
    var plain: [UInt8] = [1]
    VarInt.append(UInt64(packed.certificates.count), to: &plain)
    for id in packed.certificates.indices { VarInt.append(UInt64(id + 1), to: &plain) }
    let stored = Deflated.compress(Data(plain + packed.template))
    let read = try PackedNotification.received(stored, format: 1, what: "a test") {
      id throws(StateError) in packed.certificates[Int(id) - 1]
    }
    #expect(read == raw)
  }

  @Test func aDecisionDeflatedAsBeforeReadsBackAsWritten() throws {
    let facts = Data(#"[{"name":"reason","source":"notification","value":"OTHER"}]"#.utf8)
    let explanation = Data(#"{"facts":\#(String(decoding: facts, as: UTF8.self)),"rule":"r"}"#.utf8)
    let stored = DecisionJSON(
      facts: Deflated.compress(facts),
      explanation: Deflated.compress(explanation, dictionary: facts))
    #expect(
      try stored.written(format: 1, decisionId: 1)
        == DecisionJSON(facts: facts, explanation: explanation))
  }

  @Test func aFormatThisReckonDoesNotKnowIsRefused() throws {
    let stored = DecisionJSON(facts: Data("[]".utf8), explanation: nil).stored
    #expect(throws: StateError.self) { try stored.written(format: 3, decisionId: 1) }
    #expect(throws: StateError.self) {
      try PackedNotification.received(stored.facts, format: 3, what: "a test") {
        _ throws(StateError) in Data()
      }
    }
  }

  /// A compact JWS with `header`, a small payload and a signature.
  static func jws(header: String) -> String {
    Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(#"{"a":1}"#.utf8)) + "."
      + Base64URL.encode(Data([1, 2, 3, 4]))
  }
}
