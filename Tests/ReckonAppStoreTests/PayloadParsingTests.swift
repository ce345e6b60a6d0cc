import Foundation
import ReckonSupport
import Testing

/// Apple's own payloads read the same through Reckon's JSON parser as through Foundation's.
struct PayloadParsingTests {
  @Test func applesPayloadsParseAsFoundationDecodesThem() throws {
    for name in [
      "signedTransaction.json", "signedConsumptionRequestNotification.json",
      "signedNotification.json",
    ] {
      let data = try Fixture.data(name)
      #expect(
        try JSONValue.parse(data) == (try JSONDecoder().decode(JSONValue.self, from: data)),
        "\(name)")
    }
  }
}
