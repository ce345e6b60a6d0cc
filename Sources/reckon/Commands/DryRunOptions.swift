import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState
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
  /// `--store`: the one store whose requests are decided, the other's left out; nil for both.
  let store: FactSchema.Store?
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
    store = try arguments.option("store").map { given throws(UsageError) in
      guard let store = FactSchema.Store(rawValue: given) else {
        throw UsageError("--store must be appStore or googlePlay")
      }
      return store
    }
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

  /// The fact schema: the configuration's custom facts, or the standard schema. Read from the
  /// configuration alone: a source is opened by the schema of the store it answers for, and
  /// only by the part of the run that asks it.
  func schema() throws -> FactSchema {
    guard let configuration else { return .standard }
    return try FactSourceSetup.schema(
      configuration.factSources, currencies: configuration.currencies)
  }

  /// Runs the dry-run these options describe: each store's requests by `policies` checked in
  /// its words.
  func run(
    _ policies: DryRunPolicies, schema: FactSchema, control: DryRunControl, console: Console
  ) async throws -> DryRunResult {
    if let statePath {
      return try await runState(statePath, policies, schema, control, console)
    }
    let lines = try RequestLines(path: requestsPath!)
    let verifier = try configuration.map(DryRunSetup.verifier)
    let records = try configuredRecords()
    var result: DryRunResult
    if store != .googlePlay, let apple = policies.appStore {
      result = try await runAppStore(lines, apple, schema, verifier, records, control)
    } else if store == .googlePlay {
      // The App Store lines are left out: counted from what they claim, none verified.
      let split = try DryRunSetup.googlePlayLines(lines, skipBadLines: skipBadLines)
      let primary = policies.primary
      result = DryRunResult(
        rows: [], ignored: 0, total: 0, stopped: false, policy: primary.policy,
        against: primary.against)
      result.unreadable = split.unreadable
      result.googlePlayLines = split.googlePlay
      result.otherStore = split.appStoreRequests
    } else {
      // A policy in Google Play's words alone: the App Store requests are refused.
      let read = try DryRunSetup.pastRequests(
        lines, verifier: verifier, apps: configuration.flatMap(ConfiguredApps.init),
        skipBadLines: skipBadLines)
      if !read.requests.isEmpty {
        _ = try policies.require(.appStore, in: requestsPath!, console)
      }
      let primary = policies.primary
      result = DryRunResult(
        rows: [], ignored: read.ignored, total: 0, stopped: false, policy: primary.policy,
        against: primary.against)
      result.otherApps = read.otherApps
      result.unreadable = read.unreadable
      result.googlePlayLines = read.googlePlay
    }
    if store == .appStore {
      // The other store's requests are its reviews, not its other notifications; a line of
      // the store left out cannot stop the run.
      let other = try? GooglePlayLines(
        lines, indices: result.googlePlayLines, packages: nil, skipBadLines: true)
      result.otherStore = other?.reviews.count ?? result.googlePlayLines.count
      result.googlePlayLines = []
    }
    guard !result.googlePlayLines.isEmpty, !result.stopped else { return result }
    let reviews = try GooglePlayLines(
      lines, indices: result.googlePlayLines,
      packages: configuration.map { Set($0.googlePlayApps.map(\.packageName)) },
      skipBadLines: skipBadLines)
    guard !reviews.reviews.isEmpty else {
      result.addGooglePlay([], of: reviews)
      return result
    }
    let google = try policies.require(.googlePlay, in: requestsPath!, console)
    let dryRun = GooglePlayDryRun(
      policy: google.policy, against: google.against, schema: policies.googlePlaySchema,
      facts: .current(try googlePlayGatherer(policies.googlePlaySchema, records: records)))
    result.addGooglePlay(await dryRun.rows(reviews.reviews, control: control), of: reviews)
    return result
  }

  /// The App Store requests of a requests file: in bulk when every source answers at once,
  /// else one at a time.
  private func runAppStore(
    _ lines: RequestLines, _ checked: DryRunPolicies.Checked, _ schema: FactSchema,
    _ verifier: NotificationVerifier?, _ records: StateHistoryFacts?, _ control: DryRunControl
  ) async throws -> DryRunResult {
    let (policy, against) = (checked.policy, checked.against)
    let apps = configuration.flatMap(ConfiguredApps.init)
    let layers: [BulkFactLayer]?
    if let facts, facts != "current", facts != "recorded" {
      layers = [.lookup(try factsFile(facts, schema: schema))]
    } else if let configuration {
      layers = try DryRunSetup.bulkLayers(
        configuration,
        FactSourceSetup(
          configuration.factSources, warn: warn, currencies: configuration.currencies,
          alongside: configuration.stores))
    } else {
      layers = nil
    }
    if let layers {
      var bulk = BulkDryRun(
        policy: policy, against: against, schema: schema,
        layers: (records.map { [.history($0)] } ?? []) + layers, verifier: verifier, apps: apps)
      bulk.skipBadLines = skipBadLines
      return try await bulk.run(lines, control: control)
    }
    let setup = try FactSourceSetup(
      configuration!.factSources, warn: warn, currencies: configuration!.currencies,
      alongside: configuration!.stores)
    let read = try DryRunSetup.pastRequests(
      lines, verifier: verifier, apps: apps, skipBadLines: skipBadLines)
    var result = await SequentialDryRun(
      policy: policy, against: against, schema: schema,
      facts: .current(setup.gatherer(records: records))
    )
    .run(
      read.requests, ignored: read.ignored, otherApps: read.otherApps,
      unreadable: read.unreadable, verdicts: read.verdicts, control: control)
    result.googlePlayLines = read.googlePlay
    return result
  }

  /// The `--facts FILE.json` source, read by `schema`.
  private func factsFile(_ path: String, schema: FactSchema) throws -> JSONFileFactSource {
    // Read as the configured sources are: a file may serve both stores' requests.
    try JSONFileFactSource(
      name: URL(fileURLWithPath: path).lastPathComponent, path: path,
      schema: schema.readingSources(alongside: configuration?.stores ?? []),
      limit: configuration?.fileLimits.facts ?? .facts,
      report: { warn(JSONFileFactSource.reloadProblem($0)) })
  }

  /// Gathers Google Play reviews' facts now: from a `--facts` file, else through the
  /// configured sources opened by Google Play's schema, with the usage events they list.
  private func googlePlayGatherer(_ schema: FactSchema, records: (any RecordsFactProvider)?)
    throws -> FactGatherer
  {
    if let facts, facts != "current", facts != "recorded" {
      return FactGatherer(
        schema: schema, layers: [LayeredFactSource.Layer(try factsFile(facts, schema: schema))],
        records: records)
    }
    let setup = try FactSourceSetup(
      configuration!.factSources, warn: warn, currencies: configuration!.currencies,
      sourcesStore: .googlePlay, alongside: configuration!.stores)
    return FactGatherer(
      schema: schema, layers: setup.layers, records: records, usageEvents: setup.usageEvents)
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
    _ path: String, _ policies: DryRunPolicies, _ schema: FactSchema, _ control: DryRunControl,
    _ console: Console
  ) async throws -> DryRunResult {
    let store = try StateChoice(location: path).open(access: .readOnly)
    let stored = try store.storedRequests(since: since, until: until)
    var entries = try stored.map { stored throws(DryRunError) in
      try StoredRequestDecoder.decodeEntry(
        stored, schema: schema, googlePlay: policies.googlePlaySchema)
    }
    let all = entries.count
    if let only = self.store {
      entries.removeAll {
        switch $0 {
        case .appStore: only != .appStore
        case .googlePlay: only != .googlePlay
        }
      }
    }
    let source = "the state database \(path)"
    var apple = policies.appStore
    var google: DryRunPolicies.Checked?
    for entry in entries {
      switch entry {
      case .appStore where apple == nil:
        apple = try policies.require(.appStore, in: source, console)
      case .googlePlay where google == nil:
        google = try policies.require(.googlePlay, in: source, console)
      default: continue
      }
    }
    let history = StateHistoryFacts(store: store)
    let mode: SequentialDryRun.Facts
    let googleMode: SequentialDryRun.Facts
    switch facts ?? "recorded" {
    case "recorded":
      mode = .recorded
      googleMode = .recorded
    case "current":
      // Each store's gatherer only when the run has its requests: each opens every source
      // again, by its store's schema.
      let hasAppStore = entries.contains { if case .appStore = $0 { true } else { false } }
      mode =
        hasAppStore
        ? .current(
          try FactSourceSetup(
            configuration!.factSources, warn: warn, currencies: configuration!.currencies,
            alongside: configuration!.stores
          ).gatherer(records: history)) : .recorded
      googleMode =
        google == nil
        ? .recorded : .current(try googlePlayGatherer(policies.googlePlaySchema, records: history))
    default: throw UsageError("with --state, --facts is recorded or current")
    }
    let primary = apple ?? policies.primary
    var dryRun = SequentialDryRun(
      policy: primary.policy, against: primary.against, schema: schema, facts: mode)
    dryRun.googlePlay = google.map {
      GooglePlayDryRun(
        policy: $0.policy, against: $0.against, schema: policies.googlePlaySchema,
        facts: googleMode)
    }
    var result = await dryRun.run(
      entries: entries, verdicts: try store.storeVerdicts(), control: control)
    if self.store != nil { result.otherStore = all - entries.count }
    return result
  }
}
