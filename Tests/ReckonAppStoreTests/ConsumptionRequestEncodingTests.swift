import Foundation
import ReckonAppStore
import Testing

@Suite("ConsumptionRequest v2 body encoding")
struct ConsumptionRequestEncodingTests {
  @Test func fullBodyMatchesApplesLibraryFixture() throws {
    let request = ConsumptionRequest(
      customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
      consumptionPercentage: 50000, refundPreference: .grantFull)
    let expected = try Fixture.parsedJSON(Fixture.data("consumptionRequestV2.full.json"))
    #expect(try Fixture.parsedJSON(request.jsonData()) == expected)
  }

  @Test func minimalBodyLeavesOptionalFieldsOutInsteadOfNull() throws {
    let request = ConsumptionRequest(
      customerConsented: true, deliveryStatus: .undeliveredQualityIssue,
      sampleContentProvided: false)
    let json = String(decoding: try request.jsonData(), as: UTF8.self)
    let expected = try Fixture.parsedJSON(Fixture.data("consumptionRequestV2.minimal.json"))
    #expect(try Fixture.parsedJSON(request.jsonData()) == expected)
    #expect(!json.contains("null"))
    #expect(!json.contains("consumptionPercentage"))
    #expect(!json.contains("refundPreference"))
  }

  @Test func jsonDataIsCompactWithSortedKeys() throws {
    let request = ConsumptionRequest(
      customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
      consumptionPercentage: 50000, refundPreference: .grantFull)
    let json = String(decoding: try request.jsonData(), as: UTF8.self)
    #expect(
      json
        == #"{"consumptionPercentage":50000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_FULL","sampleContentProvided":false}"#
    )
  }

  @Test func decodingApplesFixturesRoundTrips() throws {
    for name in ["consumptionRequestV2.full.json", "consumptionRequestV2.minimal.json"] {
      let data = try Fixture.data(name)
      let request = try AppStoreJSON.decoder().decode(ConsumptionRequest.self, from: data)
      #expect(try Fixture.parsedJSON(request.jsonData()) == Fixture.parsedJSON(data))
    }
  }

  @Test func decodingFullFixtureReadsEveryField() throws {
    let request = try Fixture.decode(ConsumptionRequest.self, "consumptionRequestV2.full.json")
    #expect(
      request
        == ConsumptionRequest(
          customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
          consumptionPercentage: 50000, refundPreference: .grantFull))
  }
}
