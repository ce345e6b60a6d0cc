import Foundation
import ReckonEngine
import Testing

/// A value that is none of Apple's for a field that gives a notification fact is named, with
/// the fact it leaves missing and Apple's value closest to it.
struct UnrecognizedValueTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let from: String
    let to: String
    let described: String
    var testDescription: String { to }
  }

  /// The bundled example request with one value replaced.
  static func request(replacing from: String, with to: String) throws -> RefundRequest {
    let text = try String(
      contentsOfFile: Repository.path("examples/eval/request.json"), encoding: .utf8)
    #expect(text.contains(from))
    return try RequestFile.decode(
      Data(text.replacingOccurrences(of: from, with: to).utf8), path: "request.json")
  }

  @Test(arguments: [
    Case(
      from: #""UNSATISFIED_WITH_PURCHASE""#, to: #""UNSATISFIED""#,
      described:
        "consumptionRequestReason 'UNSATISFIED' is not one of Apple's values, so reason is missing (did you mean 'UNSATISFIED_WITH_PURCHASE'?)"
    ),
    Case(
      from: #""type": "Consumable""#, to: #""type": "consumable""#,
      described:
        "type 'consumable' is not one of Apple's values, so product.type is missing (did you mean 'Consumable'?)"
    ),
    Case(
      from: #""UNSATISFIED_WITH_PURCHASE""#, to: #""A_REASON_APPLE_ADDS_LATER""#,
      described:
        "consumptionRequestReason 'A_REASON_APPLE_ADDS_LATER' is not one of Apple's values, so reason is missing"
    ),
  ])
  func aValueThatIsNoneOfApplesIsNamedWithTheFactItLeavesMissing(_ change: Case) throws {
    let request = try Self.request(replacing: change.from, with: change.to)
    #expect(request.unrecognizedValues.map(\.description) == [change.described])
  }

  /// A number is not misspelt: an offer type Apple has not defined gets no suggestion.
  @Test func anUnknownOfferTypeGetsNoSuggestion() throws {
    let request = try Self.request(
      replacing: #""type": "Consumable","#, with: #""type": "Consumable", "offerType": 5,"#)
    #expect(
      request.unrecognizedValues.map(\.description) == [
        "offerType '5' is not one of Apple's values, so purchase.offer is missing"
      ])
  }

  @Test func theBundledExampleHasNone() throws {
    let request = try RequestFile.load(path: Repository.path("examples/eval/request.json"))
    #expect(request.unrecognizedValues.isEmpty)
  }
}
