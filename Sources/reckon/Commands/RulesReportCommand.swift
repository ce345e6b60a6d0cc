import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTools

/// `reckon report rules`: each rule of the live policies, how often it decided and what the
/// store did after it; a thin layer over `RuleReport`.
enum RulesReportCommand {
  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let configPath = arguments.option("config")
    let statePath = arguments.option("state")
    let policyPath = arguments.option("policy")
    let range = try DateRangeOptions(&arguments)
    let format = try OutputFormat.option(&arguments, allowed: [.text, .json, .csv]) ?? .text
    let htmlPath = arguments.option("html")
    try arguments.rejectUnknown(positionals: 1)
    let configuration = try
      (configPath
      ?? (FileManager.default.fileExists(atPath: "reckon.json")
        ? "reckon.json" : nil))
      .map { path in try ReckonConfiguration.load(path: path) }
    guard
      let state = statePath.map({ StateChoice(location: $0) })
        ?? configuration.map(StateChoice.init)
    else {
      throw UsageError(
        "missing --state FILE|URL (the state database), or --config reckon.json whose state names it"
      )
    }
    guard policyPath != nil || configuration != nil else {
      throw UsageError(
        "missing --policy FILE, or --config reckon.json whose apps name their policies")
    }
    let html = try htmlPath.map { path throws(HTMLReportFile.Refusal) in
      try HTMLReportFile(path, inputs: [(state.givenBy, state.location)])
    }
    guard let sources = try policies(policyPath, configuration, console) else { return 1 }
    let store = try state.open(access: .readOnly)
    let report = try RuleReport(sources, since: range.since, until: range.until) {
      try store.forEachDecidedOutcome(since: range.since, until: range.until, $0)
    }
    switch format {
    case .json: console.out(report.json())
    case .csv: console.out(report.csv())
    case .text: console.out(report.text())
    }
    if report.decisions == 0 {
      let why =
        try range.emptyWindowNote(store, decided: true)
        ?? "\(state.description) holds no decided request"
      console.error("warning: no decisions to report: \(why)")
    }
    try html?.write(report.html())
    return 0
  }

  /// The policies to list: `--policy`, else every policy the configuration's apps name, each
  /// once, checked in the words of the store it decides for; nil when one does not check (its
  /// diagnostics printed).
  private static func policies(
    _ path: String?, _ configuration: ReckonConfiguration?, _ console: Console
  ) throws -> [RuleReport.Source]? {
    let schema =
      try configuration.map {
        try FactSourceSetup.schema($0.factSources, currencies: $0.currencies)
      } ?? .standard
    let paths: [(String, FactSchema.Store)] =
      path.map { [($0, .appStore)] }
      ?? (configuration?.apps.map { ($0.policyPath, .appStore) } ?? [])
      + (configuration?.googlePlayApps.map { ($0.policyPath, .googlePlay) } ?? [])
    var seen = Set<String>()
    var sources: [RuleReport.Source] = []
    for (path, store) in paths where seen.insert(path).inserted {
      var loaded = try PolicyFiles.load(path, schema: schema.schema(for: store))
      if loaded.policy == nil, store == .appStore,
        let other = try? PolicyFiles.load(
          path, schema: schema.schema(for: .googlePlay)), other.policy != nil
      {
        // A --policy written for Google Play.
        loaded = other
      }
      guard let policy = loaded.policy else {
        console.error(loaded.renderedDiagnostics(colour: console.colour))
        return nil
      }
      sources.append(
        RuleReport.Source(
          name: policy.checked.name, version: policy.checked.version,
          sha256: SHA256Digest.hex(Data(policy.checked.source.text.utf8)), path: path,
          rules: policy.checked.rules.map(\.name)))
    }
    return sources
  }
}
