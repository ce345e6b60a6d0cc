import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// One request decided as `reckon eval` decides it, nothing recorded: the policy from its file,
/// the request from its file, and the facts from a file or through reckon.json's sources with
/// that file layered first. What an author should know on the way (the policy's diagnostics, a
/// value in the request none of Apple's, a fact the file gives in vain) goes to `warn` as it is
/// found, before any later failure.
public enum RequestEvaluation {
  /// What became of the evaluation.
  public enum Outcome: Sendable {
    /// The policy decided.
    case decided(Decision, policy: CompiledPolicy)
    /// The policy does not check; its diagnostics went to `warn`.
    case policyRefused
    /// A fact source failed on a fact the policy reads: the webhook would keep the request
    /// and retry it.
    case factsUnavailable(String)
  }

  /// Why an evaluation from reckon.json could not start.
  public enum Failure: Error, CustomStringConvertible {
    /// No app of the configuration matches the request and no policy was given.
    case noApp(configuration: String, bundleId: String)

    /// One sentence naming the file and what to do.
    public var description: String {
      switch self {
      case .noApp(let configuration, let bundleId):
        "\(configuration): no app for bundle '\(bundleId)' in this environment; give --policy"
      }
    }
  }

  /// Decides the request at `requestPath` by the policy at `policyPath` over the facts at
  /// `factsPath`, received at `now` (default: the notification's `signedDate`).
  public static func decide(
    policyPath: String, requestPath: String, factsPath: String, now: Date?, traces: Bool,
    warn: (String) -> Void
  ) throws -> Outcome {
    if let review = try GooglePlayRequestFile.load(path: requestPath, now: now) {
      return try decide(
        policyPath: policyPath, review: review, factsPath: factsPath, traces: traces, warn: warn)
    }
    let schema = FactSchema.standard
    guard let policy = try loadPolicy(policyPath, schema: schema, warn) else {
      return .policyRefused
    }
    let request = try RequestFile.load(path: requestPath, now: now)
    warnAboutUnrecognizedValues(in: request, at: requestPath, warn)
    let document = try readFacts(factsPath, schema: schema, warn)
    var facts = GatheredFacts(request: request, schema: schema)
    facts.add(
      document.values, from: URL(fileURLWithPath: factsPath).lastPathComponent, schema: schema)
    warnAboutMissingHistory(policy, schema, facts, records: false, warn)
    let decision = Decider(policy: policy, schema: schema).decide(
      request, facts: facts, trace: traces)
    return .decided(decision, policy: policy)
  }

  /// Decides a Google Play review by the policy at `policyPath`, checked in Google Play's words,
  /// over the facts at `factsPath`.
  private static func decide(
    policyPath: String, review: GooglePlayReviewRequest, factsPath: String, traces: Bool,
    warn: (String) -> Void
  ) throws -> Outcome {
    let schema = FactSchema.googlePlay
    guard let policy = try loadPolicy(policyPath, schema: schema, warn) else {
      return .policyRefused
    }
    let document = try readFacts(factsPath, schema: schema, warn)
    var facts = GatheredFacts(request: review, schema: schema)
    facts.add(
      document.values, from: URL(fileURLWithPath: factsPath).lastPathComponent, schema: schema)
    warnAboutMissingHistory(policy, schema, facts, records: false, warn)
    let decision = Decider(policy: policy, schema: schema).decide(
      review, facts: facts, trace: traces)
    return .decided(decision, policy: policy)
  }

  /// Decides a request built from options (`--reason`, `--fact` …) by the policy at
  /// `policyPath`, the facts checked against `schema`.
  public static func decide(
    policyPath: String, whatIf: WhatIfRequest, schema: FactSchema = .standard, traces: Bool,
    warn: (String) -> Void
  ) throws -> Outcome {
    guard let policy = try loadPolicy(policyPath, schema: schema, warn) else {
      return .policyRefused
    }
    let (request, facts) = try whatIf.build(schema: schema)
    warnAboutMissingHistory(policy, schema, facts, records: false, warn)
    let decision = Decider(policy: policy, schema: schema).decide(
      request, facts: facts, trace: traces)
    return .decided(decision, policy: policy)
  }

  /// Decides the request at `requestPath` as the service `configurationPath` describes would:
  /// a body as Apple posts it is verified against its roots, the policy is its app's unless
  /// `policyPath` is given, and the facts come through its sources, with `factsPath` first;
  /// `history.*` facts come from `records`, opened for the configuration (its state database,
  /// when there is one to read).
  public static func decide(
    configurationPath: String, policyPath: String?, requestPath: String, factsPath: String?,
    now: Date?, traces: Bool,
    records: (ReckonConfiguration) throws -> (any RecordsFactProvider)? = { _ in nil },
    warn: (String) -> Void
  ) async throws -> Outcome {
    let configuration = try ReckonConfiguration.load(path: configurationPath)
    if let review = try GooglePlayRequestFile.load(path: requestPath, now: now) {
      return try await decide(
        configuration, configurationPath: configurationPath, policyPath: policyPath,
        review: review, factsPath: factsPath, traces: traces, records: records, warn: warn)
    }
    let setup = try FactSourceSetup(
      configuration.factSources, currencies: configuration.currencies,
      alongside: configuration.stores)
    let request = try RequestFile.load(path: requestPath, now: now) {
      () throws(RequestFile.Failure) in
      do { return try DryRunSetup.verifier(configuration) } catch {
        throw .unreadable(path: requestPath, reason: "cannot be verified: \(error)")
      }
    }
    warnAboutUnrecognizedValues(in: request, at: requestPath, warn)
    let bundleId = request.keys.bundleId ?? ""
    guard
      let policyPath = policyPath
        ?? configuration.app(
          bundleId: bundleId, environment: request.notification.data?.environment)?.policyPath
    else {
      throw Failure.noApp(configuration: configurationPath, bundleId: bundleId)
    }
    guard let policy = try loadPolicy(policyPath, schema: setup.schema, warn) else {
      return .policyRefused
    }
    var overrides: [LayeredFactSource.Layer] = []
    if let factsPath {
      let document = try readFacts(factsPath, schema: setup.schema, warn)
      overrides.append(
        LayeredFactSource.Layer(
          FixedFactSource(
            name: URL(fileURLWithPath: factsPath).lastPathComponent, values: document.values)))
    }
    let history = try records(configuration)
    switch await setup.gatherer(records: history, before: overrides).gather(request, for: policy) {
    case .ready(let facts):
      warnAboutMissingHistory(policy, setup.schema, facts, records: history != nil, warn)
      let decision = Decider(policy: policy, schema: setup.schema).decide(
        request, facts: facts, trace: traces)
      return .decided(decision, policy: policy)
    case .retry(let failure):
      return .factsUnavailable(failure.description)
    }
  }

  /// Decides a Google Play review as the service `configuration` describes would: its Google
  /// Play app's policy unless `policyPath` is given, the facts and usage events through its
  /// sources (opened by Google Play's schema) with `factsPath` first.
  private static func decide(
    _ configuration: ReckonConfiguration, configurationPath: String, policyPath: String?,
    review: GooglePlayReviewRequest, factsPath: String?, traces: Bool,
    records: (ReckonConfiguration) throws -> (any RecordsFactProvider)?, warn: (String) -> Void
  ) async throws -> Outcome {
    let setup = try FactSourceSetup(
      configuration.factSources, currencies: configuration.currencies, sourcesStore: .googlePlay,
      alongside: configuration.stores)
    let schema = setup.schema.schema(for: .googlePlay)
    guard
      let policyPath = policyPath
        ?? configuration.googlePlayApps.first(where: { $0.packageName == review.packageName })?
        .policyPath
    else {
      throw Failure.noApp(configuration: configurationPath, bundleId: review.packageName)
    }
    guard let policy = try loadPolicy(policyPath, schema: schema, warn) else {
      return .policyRefused
    }
    var overrides: [LayeredFactSource.Layer] = []
    if let factsPath {
      let document = try readFacts(factsPath, schema: schema, warn)
      overrides.append(
        LayeredFactSource.Layer(
          FixedFactSource(
            name: URL(fileURLWithPath: factsPath).lastPathComponent, values: document.values)))
    }
    let history = try records(configuration)
    let gatherer = FactGatherer(
      schema: schema, layers: overrides + setup.layers, records: history,
      usageEvents: setup.usageEvents)
    switch await gatherer.gather(review, for: policy) {
    case .ready(let facts):
      warnAboutMissingHistory(policy, schema, facts, records: history != nil, warn)
      return .decided(
        Decider(policy: policy, schema: schema).decide(review, facts: facts, trace: traces),
        policy: policy)
    case .retry(let failure):
      return .factsUnavailable(failure.description)
    }
  }

  /// `history.*` facts come from Reckon's state database: a policy that reads them with none to
  /// read would silently fall to rules that do not need them, as "decline first" grants.
  private static func warnAboutMissingHistory(
    _ policy: CompiledPolicy, _ schema: FactSchema, _ facts: GatheredFacts, records: Bool,
    _ warn: (String) -> Void
  ) {
    let missing = FactGathering.factsRead(by: policy).filter {
      schema.origin(of: $0) == .records && facts.values[$0] == nil
    }.sorted()
    guard !missing.isEmpty, !records else { return }
    warn(
      "warning: the policy reads \(missing.joined(separator: ", ")), which comes from Reckon's "
        + "state database; with none to read (--config naming an existing state.path, or "
        + "--fact history.earlier_requests=1 to ask what if) it is missing for this request")
  }

  /// The policy at `path`, its diagnostics warned about; nil when it does not check.
  private static func loadPolicy(_ path: String, schema: FactSchema, _ warn: (String) -> Void)
    throws -> CompiledPolicy?
  {
    let loaded = try PolicyFiles.load(path, schema: schema)
    if !loaded.diagnostics.isEmpty { warn(loaded.renderedDiagnostics()) }
    return loaded.policy
  }

  /// The facts file at `path`, with a warning for each fact in it only the request gives.
  private static func readFacts(_ path: String, schema: FactSchema, _ warn: (String) -> Void)
    throws -> FactDocument
  {
    let document = try FactDocument(path: path, schema: schema)
    warnAboutNotificationFacts(in: document, at: path, schema: schema, warn)
    return document
  }

  /// A value in the request that is none of Apple's leaves its fact missing; a typo in a
  /// hand-written request would otherwise show only as a missing fact.
  private static func warnAboutUnrecognizedValues(
    in request: RefundRequest, at path: String, _ warn: (String) -> Void
  ) {
    for unrecognized in request.unrecognizedValues {
      warn("warning: \(path): \(unrecognized)")
    }
  }

  /// A fact only the request gives is not taken from the facts file: otherwise the file's
  /// value would seem to have been used.
  private static func warnAboutNotificationFacts(
    in document: FactDocument, at path: String, schema: FactSchema, _ warn: (String) -> Void
  ) {
    for name in document.values.keys.sorted() where schema.origin(of: name) == .notification {
      let why =
        name == "now"
        ? "it is when the request was received; give it with --now"
        : "only the request (the signed notification) gives it; change it in the --request file"
      warn("warning: \(path): \(name) is ignored: \(why)")
    }
  }
}

/// The facts of a facts file, as a source layered before the configured ones.
private struct FixedFactSource: FactSource {
  let name: String
  let values: [String: Value]

  func facts(for keys: RequestKeys) async throws -> [String: Value] { values }
}
