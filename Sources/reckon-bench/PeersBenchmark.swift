import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport

/// Reckon beside GoRules ZEN on the same rules and the same fact sets: `policies/targeted.policy`
/// and `scripts/peers/targeted.jdm.json` (a first-hit decision table of the same rules), ZEN run
/// through its Python package by `scripts/peers/zen-decide.py`. Both engines' deciding rules are
/// compared fact set by fact set before any figure is printed, so the two cannot drift apart.
func runPeersBenchmark(options: BenchmarkOptions) async throws {
  let count = options.int("count", 100_000)
  let runs = options.int("runs", 5)
  let python = options.string("python", "python3")
  let policyPath = "policies/targeted.policy"
  let decisionPath = "scripts/peers/targeted.jdm.json"
  let schema = FactSchema.standard
  let text = try String(contentsOfFile: policyPath, encoding: .utf8)
  let loaded = PolicyLoader.load(
    SourceFile(path: policyPath, text: text), schema: schema.policySchema)
  guard let policy = loaded.policy else {
    print("\(policyPath) does not load:\n" + loaded.renderedDiagnostics())
    return
  }
  var random = SplitMix64(seed: 7)
  let peerFacts = (0..<count).map { _ in PeerFacts(&random) }
  let request = benchmarkRequest()
  let factSets = peerFacts.map { $0.gathered(request, schema) }
  let reckon = measureReckon(policy, schema, request, factSets, runs: runs)

  let factsPath = ScratchFiles.file("peers-facts", extension: "json")
  let rulesPath = ScratchFiles.file("peers-rules", extension: "json")
  try Data(("[" + peerFacts.map(\.json).joined(separator: ",\n") + "]").utf8)
    .write(to: URL(fileURLWithPath: factsPath))
  print(
    "reckon-bench peers: \(policyPath) and \(decisionPath), \(count) fact sets, median of \(runs)")
  print(
    String(format: "  Reckon policy evaluation        %9.0f ns per decision", reckon.evaluation))
  print(String(format: "  Reckon full decision            %9.0f ns per decision", reckon.decision))
  let run: (status: Int32, output: String, error: String)
  do {
    run = try await ProcessOutput.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        python, "scripts/peers/zen-decide.py", decisionPath, factsPath, rulesPath, "--runs",
        "\(runs)",
      ],
      limit: 1_800)
  } catch {
    print("  ZEN skipped: \(python) cannot be started (\(error))")
    return
  }
  guard run.status == 0, let zen = ZenFigures(run.output) else {
    let why = run.error.trimmingCharacters(in: .whitespacesAndNewlines)
    let exited =
      run.status == 0
      ? "zen-decide.py printed no figures this reads: \(run.output)"
      : "zen-decide.py exited \(run.status)"
    print("  ZEN skipped: \(why.isEmpty ? exited : why)")
    return
  }
  let zenRules = try JSONDecoder().decode(
    [String?].self, from: Data(contentsOf: URL(fileURLWithPath: rulesPath)))
  let disagreements = zip(reckon.rules, zenRules).filter { $0 != $1 }.count
  guard zenRules.count == count, disagreements == 0 else {
    print(
      "  ZEN and Reckon disagree on \(disagreements) of \(count) fact sets: no figures compared")
    if let first = zenRules.indices.first(where: { reckon.rules[$0] != zenRules[$0] }) {
      print(
        "  the first: \(peerFacts[first].json): Reckon \(reckon.rules[first] ?? "none"), "
          + "ZEN \(zenRules[first] ?? "none")")
    }
    return
  }
  print("  both engines chose the same rule for all \(count) fact sets")
  if let ownTimer = zen.ownTimer {
    print(String(format: "  ZEN by its own timer            %9.0f ns per decision", ownTimer))
  } else {
    print("  ZEN by its own timer            not read (ZEN printed a time this cannot read)")
  }
  print(String(format: "  ZEN batch API (from Python)     %9.0f ns per decision", zen.batch))
  print(String(format: "  ZEN one call at a time (Python) %9.0f ns per decision", zen.perCall))
  let timerRatio = zen.ownTimer.map { String(format: "%.1fx", $0 / reckon.evaluation) } ?? "—"
  print(
    "  ratio: ZEN's own timer / Reckon evaluation \(timerRatio); "
      + String(format: "ZEN batch / Reckon decision %.1fx", zen.batch / reckon.decision))
}

/// Reckon's medians (ns per decision) and the rule each fact set was decided by.
private func measureReckon(
  _ policy: CompiledPolicy, _ schema: FactSchema, _ request: RefundRequest,
  _ factSets: [GatheredFacts], runs: Int
) -> (evaluation: Double, decision: Double, rules: [String?]) {
  let names = policy.checked.rules.map(\.name)
  let rules = factSets.map { policy.evaluate($0.values).rule.map { names[$0] } ?? "otherwise" }
  let decider = Decider(policy: policy, schema: schema)
  var sink = 0
  let evaluation = Stopwatch.median(runs: runs) {
    for facts in factSets { sink &+= policy.evaluate(facts.values).rule ?? -1 }
  }
  let decision = Stopwatch.median(runs: runs) {
    for facts in factSets { sink &+= decider.decide(request, facts: facts).ruleIndex ?? -1 }
  }
  if sink == 42 { print("") }  // keeps the work observable to the optimizer
  let perDecision = { (seconds: Double) in seconds / Double(factSets.count) * 1e9 }
  return (perDecision(evaluation), perDecision(decision), rules)
}

/// What `zen-decide.py` printed: ns per decision by ZEN's own timer, per call and in a batch.
private struct ZenFigures {
  let ownTimer: Double?
  let perCall: Double
  let batch: Double

  init?(_ output: String) {
    guard let line = output.split(separator: "\n").last,
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let perCall = object["per_call_ns"] as? Double,
      let batch = object["batch_ns"] as? Double
    else { return nil }
    (self.perCall, self.batch) = (perCall, batch)
    ownTimer = object["zen_timer_ns"] as? Double
  }
}
