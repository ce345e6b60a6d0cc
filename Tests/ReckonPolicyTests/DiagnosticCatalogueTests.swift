import Foundation
import Testing

@testable import ReckonPolicy

/// Each kind of problem has an id of its own and an entry in the catalogue.
struct DiagnosticCatalogueTests {
  @Test func everyIdIsKebabCaseAndUnique() {
    let names = DiagnosticID.allCases.map(\.rawValue)
    #expect(Set(names).count == names.count)
    for name in names {
      #expect(name.wholeMatch(of: /[a-z]+(-[a-z]+)*/) != nil, "\(name)")
    }
  }

  @Test func everyIdHasAnEntryOfItsOwn() {
    let summaries = DiagnosticID.allCases.map(\.summary)
    #expect(!summaries.contains(""))
    #expect(Set(summaries).count == summaries.count, "two ids share a summary")
  }
}
