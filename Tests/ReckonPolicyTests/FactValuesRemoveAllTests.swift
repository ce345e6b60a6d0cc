import ReckonPolicy
import Testing

/// Bulk paths reuse one set of values request after request.
struct FactValuesRemoveAllTests {
  @Test func removeAllLeavesEveryFactMissingAndTheValuesReusable() throws {
    let schema = TestSchema.schema
    var values = FactValues(schema: schema)
    let consented = try #require(schema.slot(ofFact: "customer.consented"))
    let product = try #require(schema.slot(ofFact: "product.id"))
    values.set(slot: consented, to: .boolean(true))
    values.set(slot: product, to: .text("com.example.coins"))
    let copy = values
    values.removeAll()
    #expect(values == FactValues(schema: schema))
    #expect(copy[consented] == .boolean(true))
    values.set(slot: consented, to: .boolean(false))
    #expect(values[consented] == .boolean(false))
    #expect(values[product] == nil)
  }

  @Test func hasValueSaysWhetherTheSlotHoldsAValue() throws {
    let schema = TestSchema.schema
    var values = FactValues(schema: schema)
    let product = try #require(schema.slot(ofFact: "product.id"))
    #expect(!values.hasValue(slot: product))
    values.set(slot: product, to: .text("com.example.coins"))
    #expect(values.hasValue(slot: product))
    // A slot the schema does not have holds nothing, as the subscript says.
    #expect(!values.hasValue(slot: schema.facts.count))
    #expect(!values.hasValue(slot: -1))
    for slot in schema.facts.indices {
      #expect(values.hasValue(slot: slot) == (values[slot] != nil))
    }
  }
}
