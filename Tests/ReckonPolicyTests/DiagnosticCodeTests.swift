import Testing

@testable import ReckonPolicy

/// Every diagnostic has a stable code of the contract's form, printed beside its severity.
struct DiagnosticCodeTests {
  @Test func everyCodeIsUniqueAndOfTheFormP0000() {
    let codes = DiagnosticID.allCases.map(\.code)
    #expect(Set(codes).count == codes.count)
    #expect(codes.allSatisfy { $0.wholeMatch(of: /P0[1-5][0-9]{2}/) != nil })
  }

  @Test func warningsHaveCodesOfTheirOwnGroup() {
    for id in DiagnosticID.allCases where id != .unansweredRequests {
      #expect(id.code.hasPrefix("P05") == (id.severity == .warning), "\(id)")
    }
  }

  @Test(arguments: ["P0306", "p0306", "unknown-fact", "UNKNOWN-FACT", "error[P0306]"])
  func anIDIsFoundByCodeOrName(_ text: String) {
    #expect(DiagnosticID(codeOrName: text) == .unknownFact)
  }

  @Test func aCodeNoProblemHasIsNotFound() {
    #expect(DiagnosticID(codeOrName: "P9999") == nil)
    #expect(DiagnosticID(codeOrName: "note[P0306]") == nil)
  }

  @Test func theCodeIsPrintedBesideTheSeverity() {
    let result = TestSchema.load("rule \"r\" when usage.consumd > 5% then refund DECLINE")
    #expect(result.renderedDiagnostics().hasPrefix("test.policy:1:15: error[P0306]: unknown fact"))
  }
}
