import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport

/// ns per decision for the `targeted` policy, 100,000 decisions over 1,000 pre-built fact sets
/// cycled (and once over 100,000 distinct sets, out of cache), with the trace off and on, and the
/// time to parse, check and compile the file; `--catalogue N` decides with a
/// generated policy of N rules, one per product id, over requests for those products; without
/// it, the load times of generated catalogues of 1,000 and 10,000 rules follow.
func runDecisionBenchmark(options: BenchmarkOptions) async throws {
  let catalogue = options.int("catalogue", 0)
  let path =
    catalogue > 0
    ? "catalogue of \(catalogue) rules" : options.string("policy", "policies/targeted.policy")
  let count = options.int("count", 100_000)
  let runs = options.int("runs", 7)
  let text =
    catalogue > 0 ? cataloguePolicy(catalogue) : try String(contentsOfFile: path, encoding: .utf8)
  let schema = FactSchema.standard
  let source = SourceFile(path: path, text: text)
  // A large catalogue takes long enough per load that a few loads make a steady median.
  let loadRuns = catalogue >= 2_000 ? 5 : 101
  let loadSeconds = Stopwatch.median(runs: loadRuns) {
    _ = PolicyLoader.load(source, schema: schema.policySchema)
  }
  guard let policy = PolicyLoader.load(source, schema: schema.policySchema).policy else {
    print(
      "\(path) does not load:\n"
        + PolicyLoader.load(source, schema: schema.policySchema).renderedDiagnostics())
    return
  }
  let request = benchmarkRequest()
  var random = SplitMix64(seed: 42)
  let setCount = max(1, min(options.int("sets", 1_000), count))
  let makeFacts = { (random: inout SplitMix64) -> GatheredFacts in
    var facts = randomFacts(request, schema, &random)
    if catalogue > 0 {
      let sku = Int.random(in: 0..<(catalogue + catalogue / 10), using: &random)
      facts.overrideForBenchmark("product.id", .text("com.example.sku\(sku)"))
    }
    return facts
  }
  // A decision reads facts just gathered, still in cache: a pool of distinct sets small enough to
  // stay there is cycled through. The last line reads every set once from memory instead.
  let factSets = (0..<setCount).map { _ in makeFacts(&random) }
  let values = factSets.map(\.values)
  let rounds = max(1, count / setCount)
  let decided = rounds * setCount
  let decider = Decider(policy: policy, schema: schema)

  var sink = 0
  let evaluateOff = { (runs: Int) in
    Stopwatch.median(runs: runs) {
      for _ in 0..<rounds { for facts in values { sink &+= policy.evaluate(facts).rule ?? -1 } }
    }
  }
  let decideOff = { (runs: Int) in
    Stopwatch.median(runs: runs) {
      for _ in 0..<rounds {
        for facts in factSets { sink &+= decider.decide(request, facts: facts).ruleIndex ?? -1 }
      }
    }
  }
  let evaluateOn = { (runs: Int) in
    Stopwatch.median(runs: runs) {
      for _ in 0..<rounds {
        for facts in values { sink &+= policy.evaluate(facts, trace: true).rule ?? -1 }
      }
    }
  }
  // For a profiler: one measurement alone, run after run.
  switch options.string("only", "") {
  case "evaluation":
    print(
      "  policy evaluation, trace off   \(perDecision(evaluateOff(runs), decided)) per decision")
    return
  case "trace":
    print("  policy evaluation, trace on    \(perDecision(evaluateOn(runs), decided)) per decision")
    return
  case "decision":
    print("  full decision, trace off       \(perDecision(decideOff(runs), decided)) per decision")
    return
  default: break
  }
  let decideOn = Stopwatch.median(runs: runs) {
    for _ in 0..<rounds {
      for facts in factSets {
        sink &+= decider.decide(request, facts: facts, trace: true).ruleIndex ?? -1
      }
    }
  }
  let coldValues = (0..<decided).map { _ in makeFacts(&random).values }
  let evaluateCold = Stopwatch.median(runs: runs) {
    for facts in coldValues { sink &+= policy.evaluate(facts).rule ?? -1 }
  }
  print(
    "reckon-bench decision: \(path), \(decided) decisions over \(setCount) fact sets, "
      + "median of \(runs) runs, thread CPU time")
  print("  policy evaluation, trace off   \(perDecision(evaluateOff(runs), decided)) per decision")
  print("  policy evaluation, trace on    \(perDecision(evaluateOn(runs), decided)) per decision")
  print("  full decision (body + Apple rules), trace off \(perDecision(decideOff(runs), decided))")
  print("  full decision (body + Apple rules), trace on  \(perDecision(decideOn, decided))")
  print(
    "  policy evaluation, trace off, \(decided) distinct sets not in cache "
      + perDecision(evaluateCold, decided))
  print(
    String(
      format: "  parse + check + compile        %8.1f µs per load (median of %d)",
      loadSeconds * 1e6, loadRuns))
  if catalogue == 0, !options.flag("no-catalogues") { printCatalogueLoads(schema: schema) }
  if sink == 42 { print("") }  // keeps the work observable to the optimizer
}

/// `seconds` for `count` decisions, as nanoseconds per decision.
private func perDecision(_ seconds: Double, _ count: Int) -> String {
  String(format: "%8.0f ns", seconds / Double(count) * 1e9)
}

/// The App Store request every decision benchmark decides, its facts varied per run.
func benchmarkRequest() -> RefundRequest {
  var notification = ResponseBodyV2DecodedPayload()
  notification.rawNotificationType = "CONSUMPTION_REQUEST"
  notification.notificationUUID = "bench"
  var data = NotificationData()
  data.rawConsumptionRequestReason = "UNSATISFIED_WITH_PURCHASE"
  data.rawEnvironment = "Production"
  notification.data = data
  var transaction = JWSTransactionDecodedPayload()
  transaction.transactionId = "2000000000000001"
  transaction.rawType = "Consumable"
  transaction.productId = "com.example.coins.pack500"
  transaction.quantity = 1
  transaction.purchaseDate = Date(timeIntervalSince1970: 1_790_000_000)
  return RefundRequest(
    notification: notification, transaction: transaction,
    receivedAt: Date(timeIntervalSince1970: 1_790_100_000))
}

private func randomFacts(_ request: RefundRequest, _ schema: FactSchema, _ random: inout SplitMix64)
  -> GatheredFacts
{
  var facts = GatheredFacts(request: request, schema: schema)
  let reasons = FactSchema.reason.cases.count
  let statuses = FactSchema.deliveryStatus.cases.count
  let types = FactSchema.productType.cases.count
  var adapter: [String: Value] = [
    "customer.consented": .boolean(Int.random(in: 0..<10, using: &random) > 0),
    "delivery.status": .enumeration(
      Int.random(in: 0..<10, using: &random) < 7 ? 0 : Int.random(in: 0..<statuses, using: &random)),
    "product.sample_offered": .boolean(Bool.random(using: &random)),
    "usage.consumed": .percent(Double(Int.random(in: 0...100, using: &random))),
    "customer.refunds_last_90_days": .number(Double(Int.random(in: 0...4, using: &random))),
    "history.earlier_requests": .number(Double(Int.random(in: 0...2, using: &random))),
  ]
  if Int.random(in: 0..<10, using: &random) == 0 {
    adapter["customer.override"] = .enumeration(
      Int.random(in: 0..<FactSchema.customerOverride.cases.count, using: &random))
  }
  facts.add(adapter, from: "bench", schema: schema)
  // The notification's own facts vary too, as they would across requests.
  facts.overrideForBenchmark("reason", .enumeration(Int.random(in: 0..<reasons, using: &random)))
  facts.overrideForBenchmark(
    "product.type", .enumeration(Int.random(in: 0..<types, using: &random)))
  return facts
}
