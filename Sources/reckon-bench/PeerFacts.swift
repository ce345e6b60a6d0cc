import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport

/// One request's facts as both engines of `reckon-bench peers` read them: the few the `targeted`
/// policy looks at, drawn as the decision benchmark draws them.
struct PeerFacts: Sendable {
  var override: String?
  var delivery: String
  var used: Int
  var reason: String
  var productType: String
  var refunds90: Int

  /// A fact set drawn from `random`: mostly delivered, an override one time in ten.
  init(_ random: inout SplitMix64) {
    func any(_ type: EnumType) -> String {
      type.cases[Int.random(in: 0..<type.cases.count, using: &random)]
    }
    override = Int.random(in: 0..<10, using: &random) == 0 ? any(FactSchema.customerOverride) : nil
    delivery =
      Int.random(in: 0..<10, using: &random) < 7 ? "DELIVERED" : any(FactSchema.deliveryStatus)
    used = Int.random(in: 0...100, using: &random)
    reason = any(FactSchema.reason)
    productType = any(FactSchema.productType)
    refunds90 = Int.random(in: 0...4, using: &random)
  }

  /// The facts Reckon decides on: the adapter's, and the notification's own overridden.
  func gathered(_ request: RefundRequest, _ schema: FactSchema) -> GatheredFacts {
    var facts = GatheredFacts(request: request, schema: schema)
    var adapter: [String: Value] = [
      "delivery.status": .enumeration(Self.ordinal(delivery, FactSchema.deliveryStatus)),
      "usage.consumed": .percent(Double(used)),
      "customer.refunds_last_90_days": .number(Double(refunds90)),
    ]
    if let override {
      adapter["customer.override"] = .enumeration(
        Self.ordinal(override, FactSchema.customerOverride))
    }
    facts.add(adapter, from: "bench", schema: schema)
    facts.overrideForBenchmark("reason", .enumeration(Self.ordinal(reason, FactSchema.reason)))
    facts.overrideForBenchmark(
      "product.type", .enumeration(Self.ordinal(productType, FactSchema.productType)))
    return facts
  }

  /// The JSON object ZEN's decision table reads (scripts/peers/targeted.jdm.json's fields).
  var json: String {
    let quotedOverride = override.map { "\"\($0)\"" } ?? "null"
    return """
      {"override":\(quotedOverride),"delivery":"\(delivery)","used":\(used),\
      "reason":"\(reason)","productType":"\(productType)","refunds90":\(refunds90)}
      """
  }

  private static func ordinal(_ name: String, _ type: EnumType) -> Int {
    type.cases.firstIndex(of: name)!
  }
}
