import Foundation
import ReckonAppStore
import ReckonSupport
import Testing

/// Verification decodes payloads from the parsed `JSONValue`; it must read exactly what
/// `AppStoreJSON.decoder()` reads from the bytes, and refuse what it refuses.
@Suite struct JSONValueDecoderTests {
  static func both<T: Decodable & Equatable>(_ type: T.Type, _ data: Data) throws -> (T?, T?) {
    let bytes = try? AppStoreJSON.decoder().decode(type, from: data)
    let value = try? JSONValueDecoder().decode(type, from: JSONValue.parse(data))
    return (bytes, value)
  }

  @Test(arguments: [
    "signedNotification.json", "signedConsumptionRequestNotification.json",
    "signedSummaryNotification.json",
  ])
  func notificationsMatchJSONDecoder(name: String) throws {
    let (bytes, value) = try Self.both(ResponseBodyV2DecodedPayload.self, Fixture.data(name))
    #expect(bytes != nil)
    #expect(bytes == value)
  }

  @Test(arguments: ["signedTransaction.json", "signedTransactionWithRevocation.json"])
  func transactionsMatchJSONDecoder(name: String) throws {
    let (bytes, value) = try Self.both(JWSTransactionDecodedPayload.self, Fixture.data(name))
    #expect(bytes != nil)
    #expect(bytes == value)
  }

  @Test func xcodePayloadsWithFractionalDatesMatch() throws {
    let data = try Fixture.jwsPayload("xcode-signed-transaction")
    let (bytes, value) = try Self.both(JWSTransactionDecodedPayload.self, data)
    #expect(bytes != nil)
    #expect(bytes == value)
  }

  @Test(arguments: [
    #"{"quantity": 2, "price": 1e3, "purchaseDate": 1698148900000.5, "isUpgraded": false}"#,
    #"{"appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138", "quantity": null}"#,
    #"{"quantity": 2.0, "unknown": {"nested": [1, "x", null]}}"#,
    #"{"appAccountToken": "7E3FB20B-4CDB-47cc-936D-99D65F608138"}"#,
    // Each of these is refused by both.
    #"{"quantity": 2.5}"#, #"{"quantity": "2"}"#, #"{"appAccountToken": "not-a-uuid"}"#,
    #"{"isUpgraded": 1}"#, #"{"purchaseDate": "yesterday"}"#, #"{"transactionId": 12}"#,
    #"{"commitmentInfo": []}"#, #"[]"#, #"{"quantity": 99999999999999999999}"#,
    #"{"appAccountToken": "7e3fb20b4-cdb-47cc-936d-99d65f608138"}"#,
    #"{"appAccountToken": "{7e3fb20b-4cdb-47cc-936d-99d65f608138}"}"#,
    #"{"appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f60813g"}"#,
    #"{"appAccountToken": 7}"#,
  ])
  func edgeCasesMatchJSONDecoder(json: String) throws {
    let (bytes, value) = try Self.both(JWSTransactionDecodedPayload.self, Data(json.utf8))
    #expect(bytes == value)
  }

  @Test func notificationDataEdgeCasesMatch() throws {
    for json in [
      #"{"data": {"appAppleId": 1234, "status": 1, "environment": "Sandbox"}, "signedDate": 5}"#,
      #"{"data": {"appAppleId": "1234"}}"#, #"{"data": 3}"#, #"{"summary": {"failedCount": 1}}"#,
    ] {
      let (bytes, value) = try Self.both(ResponseBodyV2DecodedPayload.self, Data(json.utf8))
      #expect(bytes == value, "\(json)")
    }
  }

  @Test(arguments: [
    #"{"data": {"appAppleId": "1234"}}"#, #"{"data": {"status": "1"}}"#,
    #"{"summary": {"failedCount": "one"}}"#, #"{"data": {"environment": 3}}"#,
  ])
  func errorsNameTheSamePathAsJSONDecoder(json: String) throws {
    func path(_ decode: () throws -> ResponseBodyV2DecodedPayload) -> [String]? {
      do { _ = try decode() } catch let DecodingError.typeMismatch(_, context) {
        return context.codingPath.map(\.stringValue)
      } catch { return nil }
      return nil
    }
    let data = Data(json.utf8)
    let fromBytes = path {
      try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: data)
    }
    let fromValue = path {
      try JSONValueDecoder().decode(ResponseBodyV2DecodedPayload.self, from: JSONValue.parse(data))
    }
    #expect(fromBytes != nil)
    #expect(fromBytes == fromValue)
  }
}
