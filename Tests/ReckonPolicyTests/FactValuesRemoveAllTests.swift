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
}
