import Foundation
import Testing

/// `reckon queue set ID FIELD=VALUE`: only the fields of Apple's ConsumptionRequest, typed as
/// Apple reads them, and never the customer's consent.
struct QueueSetTests {
  /// An assignment that must be refused, and what the refusal must say.
  struct Refused: CustomTestStringConvertible, Sendable {
    let assignment: String
    let says: String

    var testDescription: String { assignment }
  }

  static let refused: [Refused] = [
    Refused(assignment: "bogusField=1", says: "'bogusField' is not a field of Apple's"),
    Refused(
      assignment: "refundPrefrence=GRANT_FULL", says: "did you mean 'refundPreference'?"),
    Refused(assignment: "refundPreference=GRANT_FUL", says: "did you mean 'GRANT_FULL'?"),
    Refused(assignment: "deliveryStatus=delivered", says: "did you mean 'DELIVERED'?"),
    Refused(assignment: "sampleContentProvided=1", says: "must be true or false"),
    Refused(assignment: "consumptionPercentage=150%", says: "between 0% and 100%"),
    Refused(assignment: "consumptionPercentage=half", says: "milli-percent"),
    // Apple's usual out-of-range mistake, 94 for 94000: a bare 1 to 100 asks which was meant.
    Refused(
      assignment: "consumptionPercentage=94",
      says: "a bare 94 is Apple's milli-percent, 0.094%; write 94% (or 94000) for 94 percent"),
    Refused(assignment: "consumptionPercentage=100", says: "write 100% (or 100000)"),
    Refused(assignment: "customerConsented=true", says: "customer's consent"),
    Refused(assignment: "customerConsented=false", says: "customer's consent"),
    // Which of two values was meant cannot be told; the last one used to win silently.
    Refused(
      assignment: "refundPreference=DECLINE refundPreference=GRANT_FULL",
      says: "refundPreference is given more than once"),
    // Apple requires these two: they cannot be left out.
    Refused(assignment: "deliveryStatus=none", says: "must be one of DELIVERED"),
    Refused(assignment: "sampleContentProvided=none", says: "must be true or false"),
    Refused(assignment: "refundPreference=", says: "or none to send none (share data only)"),
  ]

  @Test(arguments: refused)
  func anAssignmentOutsideApplesFieldsIsRefusedAndTheBodyKept(_ case: Refused) async throws {
    let fixture = try QueueFixture()
    let words = `case`.assignment.split(separator: " ").map(String.init)
    let run = try await fixture.queue(["set", "1"] + words)
    #expect(run.status != 0)
    #expect(run.standardError.contains(`case`.says), "\(run.standardError)")
    #expect(try fixture.body(1) == QueueFixture.body)
    let show = try await fixture.queue(["show", "1"])
    #expect(show.standardOutput.hasPrefix("entry 1: held"), "\(show.standardOutput)")
  }

  /// A value as typed, and the body field it must become.
  struct Accepted: CustomTestStringConvertible, Sendable {
    let assignment: String
    let field: String

    var testDescription: String { assignment }
  }

  static let accepted: [Accepted] = [
    Accepted(assignment: "consumptionPercentage=50%", field: #""consumptionPercentage":50000"#),
    Accepted(assignment: "consumptionPercentage=37.5%", field: #""consumptionPercentage":37500"#),
    Accepted(assignment: "consumptionPercentage=40000", field: #""consumptionPercentage":40000"#),
    Accepted(assignment: "consumptionPercentage=0.094%", field: #""consumptionPercentage":94"#),
    Accepted(assignment: "consumptionPercentage=101", field: #""consumptionPercentage":101"#),
    Accepted(assignment: "refundPreference=DECLINE", field: #""refundPreference":"DECLINE""#),
    Accepted(assignment: "sampleContentProvided=false", field: #""sampleContentProvided":false"#),
    Accepted(
      assignment: "deliveryStatus=UNDELIVERED_OTHER consumptionPercentage=0%",
      field: #""deliveryStatus":"UNDELIVERED_OTHER""#),
  ]

  @Test(arguments: accepted)
  func applesFieldsAreSetAsApplesUnits(_ case: Accepted) async throws {
    let fixture = try QueueFixture()
    let words = `case`.assignment.split(separator: " ").map(String.init)
    let run = try await fixture.queue(["set", "1"] + words)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "entry 1: pending\n")
    let body = try fixture.body(1)
    #expect(body.contains(`case`.field), "\(body)")
    #expect(body.contains(#""customerConsented":true"#))
  }

  /// `none` leaves an optional field out: a held DECLINE can become a reply sharing data only.
  @Test func noneLeavesAnOptionalFieldOutOfTheBody() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["set", "1", "refundPreference=none"])
    #expect(run.status == 0, "\(run.standardError)")
    let body = try fixture.body(1)
    #expect(!body.contains("refundPreference"), "\(body)")
    #expect(body.contains(#""customerConsented":true"#))
  }
}
