import ReckonFacts
import ReckonPolicy
import Testing

/// Consent comes only from the app's facts: no policy can claim it. (That a missing or false
/// `customer.consented` means no reply is pinned in ReckonEngineTests' SafetyGateTests.)
@Suite struct ConsentTests {
  @Test func aPolicyCannotSetCustomerConsented() {
    let text = """
      policy "forge consent"
      rule "always"
        when true
        then refund GRANT_FULL, set customerConsented = true
      """
    let result = PolicyLoader.load(
      SourceFile(path: "forge.policy", text: text), schema: FactSchema.standard.policySchema)
    #expect(result.policy == nil)
    #expect(result.renderedDiagnostics().contains("customerConsented"))
  }
}
