import Testing

@testable import ReckonPolicy

/// Which diagnostics a file with several problems shows.
struct DiagnosticSelectionTests {
  /// docs/language.md: warnings come from analysing a policy that checks, so a file with errors
  /// shows its errors only, here a syntax error beside rules that would draw warnings.
  @Test func aFileWithErrorsShowsItsErrorsOnly() {
    let result = TestSchema.load(
      """
      rule "x" when true then refund DECLINE
      otherwise refund DECLINE
      rule "y" when true then refund DECLINE
      otherwise share data only
      """)
    #expect(
      result.diagnostics.map(\.id) == [.declarationAfterOtherwise, .duplicateOtherwise],
      "\(result.renderedDiagnostics())")
  }
}
