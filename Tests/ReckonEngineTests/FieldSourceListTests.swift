import Testing

@testable import ReckonEngine

/// The list a decision keeps of where each body field came from.
struct FieldSourceListTests {
  @Test func listsInTheOrderAddedAndReadsByName() {
    var list = FieldSourceList(capacity: 2)
    list.add("deliveryStatus", .fact("delivery.status"))
    list.add("refundPreference", .rule("r"))
    #expect(list.entries.map(\.field) == ["deliveryStatus", "refundPreference"])
    #expect(list["refundPreference"] == .rule("r"))
    #expect(list["sampleContentProvided"] == nil)
    #expect(
      list.dictionary == [
        "deliveryStatus": .fact("delivery.status"), "refundPreference": .rule("r"),
      ])
  }

  @Test func listsOfTheSameSourcesInAnotherOrderAreEqualAndHashAlike() {
    var first = FieldSourceList()
    first.add("a", .fact("x"))
    first.add("b", .rule("r"))
    var second = FieldSourceList()
    second.add("b", .rule("r"))
    second.add("a", .fact("x"))
    var third = FieldSourceList()
    third.add("a", .fact("x"))
    third.add("b", .rule("other"))
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)
    #expect(first != third)
  }

  @Test func aDecisionReportsItsSourcesByFieldName() throws {
    let decision = try Scenario().decide("otherwise refund DECLINE")
    #expect(decision.fieldSources["customerConsented"] == .fact("customer.consented"))
    #expect(decision.fieldSources.count == decision.sourceList.entries.count)
  }
}
