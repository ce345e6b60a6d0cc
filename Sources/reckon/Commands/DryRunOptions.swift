import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonStateSQLite
import ReckonTools

/// The options of `reckon dry-run`, checked, and the run they describe.
struct DryRunOptions {
  let policyPath: String
  let againstPath: String?
  let requestsPath: String?
  let statePath: String?
  let since: Date?
  let until: Date?
  /// `--since` and `--until` as given.
  let range: DateRangeOptions
  let facts: String?
  let configPath: String?
  let format: OutputFormat
  let htmlPath: String?
  let quiet: Bool
  let skipBadLines: Bool
  private let configuration: ReckonConfiguration?

  /// Where a facts file that changes mid-run and no longer reads is said.
  let warn: @Sendable (String) -> Void

  init(_ arguments: inout Arguments, warn: @escaping @Sendable (String) -> Void) throws {
    self.warn = warn
    policyPath = try arguments.required("policy")
    againstPath = arguments.option("against")
    requestsPath = arguments.option("requests")
    statePath = arguments.option("state")
    range = try DateRangeOptions(&arguments)
    since = range.since
    until = range.until
    facts = arguments.option("facts")
    configPath = arguments.option("config")
    format = try OutputFormat.option(&arguments, allowed: [.text, .csv, .json]) ?? .text
    htmlPath = arguments.option("html")
    quiet = arguments.flag("quiet")
    skipBadLines = arguments.flag("skip-bad-lines")
    try arguments.rejectUnknown()
    guard (requestsPath == nil) != (statePath == nil) else {
      throw UsageError("give either --requests FILE.jsonl or --state DATABASE")
    }
    // Refused rather than applied: a requests file is the selection the user made.
    if requestsPath != nil, let option = range.given.first {
      throw UsageError(
        "\(option) selects requests in --state by when they were received; with --requests, give a file of only the requests to decide"
      )
    }
    // Stored requests are not lines; one that cannot be read back is a damaged database.
    if statePath != nil, skipBadLines {
      throw UsageError("--skip-bad-lines is for the lines of --requests, not --state")
    }
    if requestsPath != nil, configPath == nil,
      facts == nil || facts == "current" || facts == "recorded"
    {
      throw UsageError(
        "--requests needs facts: --config reckon.json (sources) or --facts FILE.json")
    }
    if facts == "current", configPath == nil { throw UsageError("--facts current needs --config") }
    configuration = try configPath.map { try ReckonConfiguration.load(path: $0) }
  }

  /// The files the run reads, by option, which `--html` must not overwrite.
  var inputFiles: [(option: String, path: String)] {
    var files: [(option: String, path: String)] = [("--policy", policyPath)]
    if let againstPath { files.append(("--against", againstPath)) }
    if let requestsPath { files.append(("--requests", requestsPath)) }
    if let statePath { files.append(("--state", statePath)) }
    if let configPath { files.append(("--config", configPath)) }
    if let facts, facts != "current", facts != "recorded" { files.append(("--facts", facts)) }
    return files
  }

  /// The fact schema: the configuration's custom facts, or the standard schema.
  func schema() throws -> FactSchema {
    guard let configuration else { return .standard }
    return try FactSourceSetup(
      configuration.factSources, warn: warn, currencies: configuration.currencies
    ).schema
  }

  /// Runs the dry-run these options describe.
  func run(
    policy: CompiledPolicy, against: CompiledPolicy?, schema: FactSchema, control: DryRunControl
  )
    async throws -> DryRunResult
  {
    if let statePath { return try await runState(statePath, policy, against, schema, control) }
    let lines = try RequestLines(path: requestsPath!)
    let verifier = try configuration.map(DryRunSetup.verifier)
    let apps = configuration.flatMap(ConfiguredApps.init)
    let layers: [BulkFactLayer]?
    if let facts, facts != "current", facts != "recorded" {
      layers = [
        .lookup(
          try JSONFileFactSource(
            name: URL(fileURLWithPath: facts).lastPathComponent, path: facts, schema: schema,
            limit: configuration?.fileLimits.facts ?? .facts,
            report: { warn(JSONFileFactSource.reloadProblem($0)) }))
      ]
    } else if let configuration {
      layers = try DryRunSetup.bulkLayers(
        configuration,
        FactSourceSetup(
          configuration.factSources, warn: warn, currencies: configuration.currencies))
    } else {
      layers = nil
    }
    let records = try configuredRecords()
    if let layers {
      var bulk = BulkDryRun(
        policy: policy, against: against, schema: schema,
        layers: (records.map { [.history($0)] } ?? []) + layers, verifier: verifier, apps: apps)
      bulk.skipBadLines = skipBadLines
      return try await bulk.run(lines, control: control)
    }
    let setup = try FactSourceSetup(
      configuration!.factSources, warn: warn, currencies: configuration!.currencies)
    let read = try DryRunSetup.pastRequests(
      lines, verifier: verifier, apps: apps, skipBadLines: skipBadLines)
    return await SequentialDryRun(
      policy: policy, against: against, schema: schema,
      facts: .current(setup.gatherer(records: records))
    )
    .run(
      read.requests, ignored: read.ignored, otherApps: read.otherApps,
      unreadable: read.unreadable, verdicts: read.verdicts, control: control)
  }

  /// Why the run decided nothing, as a warning, or nil when it decided something or was
  /// stopped: for `--state` with a window that holds none of the database's requests, how many
  /// it has and when they were received, so the window is not taken for an empty database.
  func nothingDecided(_ result: DryRunResult) throws -> String? {
    guard result.rows.isEmpty, !result.stopped else { return nil }
    if let statePath,
      let note = try range.emptyWindowNote(
        StateChoice(location: statePath).open(access: .readOnly), decided: false)
    {
      return "warning: nothing was decided: \(note)"
    }
    let source = requestsPath ?? statePath.map { "the state database \($0)" }
    return DryRunText.nothingDecided(result, source: source ?? "the source")
  }

  /// Where `history.*` facts come from when they are gathered now: the `--state` database, or
  /// for `--requests` the configured one if it exists; nil when there is none, or the facts
  /// are the recorded ones.
  func historySource() -> StateChoice? {
    if let statePath { return facts == "current" ? StateChoice(location: statePath) : nil }
    return configuration.flatMap(StateChoice.existing)
  }

  /// Reckon's records in the configured state database, for `--requests`.
  private func configuredRecords() throws -> StateHistoryFacts? {
    try historySource().map {
      StateHistoryFacts(store: try $0.open(access: .readOnly))
    }
  }

  private func runState(
    _ path: String, _ policy: CompiledPolicy, _ against: CompiledPolicy?, _ schema: FactSchema,
    _ control: DryRunControl
  ) async throws -> DryRunResult {
    let store = try StateChoice(location: path).open(access: .readOnly)
    let stored = try store.storedRequests(since: since, until: until)
    let requests = try stored.map { stored throws(DryRunError) in
      try StoredRequestDecoder.decode(stored, schema: schema)
    }
    let mode: SequentialDryRun.Facts
    switch facts ?? "recorded" {
    case "recorded": mode = .recorded
    case "current":
      mode = .current(
        try FactSourceSetup(
          configuration!.factSources, warn: warn, currencies: configuration!.currencies
        ).gatherer(
          records: StateHistoryFacts(store: store)))
    default: throw UsageError("with --state, --facts is recorded or current")
    }
    return await SequentialDryRun(policy: policy, against: against, schema: schema, facts: mode)
      .run(requests, verdicts: try store.storeVerdicts(), control: control)
  }
}
