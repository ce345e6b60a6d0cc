import Foundation
import ReckonEngine

/// `reckon generate`: realistic past requests with the app's facts, for dry-runs and demos.
enum GenerateCommand: Command {
  static let name = "generate"
  static let summary = "Generate realistic past requests with facts (and a state database)"
  static let flagNames: Set<String> = []
  static let help = """
    Usage: reckon generate --out FOLDER [--count N] [--seed N] [--days N] [--policy FILE] [--state]

    Writes FOLDER/requests.jsonl (CONSUMPTION_REQUESTs in Apple's decoded shape), FOLDER/facts.sqlite
    (the example app's database, examples/facts.sql's schema) and FOLDER/reckon.json (the SQLite
    source with the example queries and their bulkQuery). The same seed gives the same files.
    --count N     how many requests (default 10000)
    --days N      spread over this many days (default 90)
    --policy FILE the app's policy in reckon.json; with --state, the policy the history was decided by
    --state yes   also write FOLDER/reckon-state.sqlite: each request decided by --policy on the
                  generated facts, with Apple's outcomes (REFUND, REFUND_DECLINED, REFUND_REVERSED)
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let folder = try arguments.required("out")
    let count = try number(arguments.option("count"), "count") ?? 10_000
    let seed = try number(arguments.option("seed"), "seed") ?? 1
    let days = try number(arguments.option("days"), "days") ?? 90
    let policy = arguments.option("policy") ?? "policies/targeted.policy"
    let state = arguments.option("state")
    try arguments.rejectUnknown()
    let generator = PastRequestGenerator(count: count, seed: UInt64(seed), days: days)
    let absolute = URL(fileURLWithPath: policy).standardizedFileURL.path
    let files = try GeneratedDataWriter.write(generator, to: folder, policyPath: absolute)
    console.out(
      "wrote \(count) requests to \(files.requests), facts to \(files.facts), \(files.configuration)"
    )
    if state == "yes" || state == "true" {
      let path = folder + "/reckon-state.sqlite"
      let written = try await GeneratedHistory.write(
        generator, configuration: files.configuration, to: path)
      console.out("wrote \(written) decided requests with outcomes to \(path)")
    }
    return 0
  }

  private static func number(_ text: String?, _ name: String) throws -> Int? {
    guard let text else { return nil }
    guard let value = Int(text), value >= 0 else {
      throw UsageError("--\(name) must be a whole number")
    }
    return value
  }
}
