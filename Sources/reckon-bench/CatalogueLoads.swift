import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// The time to load the generated catalogues of 1,000 and 10,000 rules: parse, check and
/// compile with every analysis, as `PolicyLoader.load` does, and that with Apple's answer
/// coverage, as `reckon serve` and a reload do before a policy goes live and `reckon check`
/// does for a file.
func printCatalogueLoads(schema: FactSchema) {
  for rules in [1_000, 10_000] {
    let source = SourceFile(path: "catalogue.policy", text: cataloguePolicy(rules))
    let runs = rules >= 2_000 ? 5 : 21
    let load = Stopwatch.median(runs: runs) {
      _ = PolicyLoader.load(source, schema: schema.policySchema)
    }
    let live = Stopwatch.median(runs: runs) {
      _ = PolicyLoader.load(source, schema: schema.policySchema).withAnswerCoverage(schema: schema)
    }
    print(
      String(
        format:
          "  catalogue of %6d rules: load %7.1f ms, with answer coverage %7.1f ms (median of %d)",
        rules, load * 1e3, live * 1e3, runs))
  }
}

/// A catalogue's policy: a rule per product id, each with a condition on usage or the reason,
/// as a team with a SKU each would write it, the consent and delivery rules first.
func cataloguePolicy(_ rules: Int) -> String {
  var lines = [
    "rule \"no consent\" when customer.consented == false then do not respond",
    "rule \"not delivered\" when delivery.status != DELIVERED then refund GRANT_FULL",
  ]
  for sku in 0..<rules {
    let condition =
      sku % 2 == 0
      ? "usage.consumed >= \(50 + sku % 40)%" : "reason in [UNINTENDED_PURCHASE, OTHER]"
    lines.append(
      "rule \"sku \(sku)\" when product.id == \"com.example.sku\(sku)\" and \(condition) then refund DECLINE"
    )
  }
  lines.append("otherwise share data only")
  return lines.joined(separator: "\n")
}
