import ReckonFacts
import ReckonPolicy
import ReckonSupport

/// Reckon's own records of earlier requests and outcomes, which give the `history.*` facts. The
/// state database implements it; until then a gatherer without one leaves those facts to adapters.
public protocol RecordsFactProvider: Sendable {
  /// The records facts (origin `.records`) for `request`.
  func facts(for request: any ReplyRequest) async throws -> [String: Value]
  /// Whether `facts(for:)` answers at once (a few local reads, waiting at most for a lock held
  /// as briefly): it is then asked on the caller's task, with no task or `recordsTimeout` of its
  /// own, which would cost more than the reads.
  var answersAtOnce: Bool { get }
}

extension RecordsFactProvider {
  /// By default a provider may block, so it gets a task and a time limit.
  public var answersAtOnce: Bool { false }
}

/// Gathers the facts of one request: the notification's own, Reckon's records, then the fact
/// sources in configured order, and says whether a decision may be made on them.
///
/// Every source is asked at once, each within its timeout. The first source that supplies a fact
/// wins; notification facts are never replaced. When a source fails or times out, the request is
/// decided only if no fact the decision reads could have come from it; otherwise the outcome is
/// `.retry`, never a decision on partial facts.
public struct FactGatherer: Sendable {
  /// The schema facts are checked against.
  public let schema: FactSchema
  /// The configured sources, highest precedence first.
  public let sources: LayeredFactSource
  /// Reckon's records, for `history.*` facts.
  public let records: (any RecordsFactProvider)?
  /// How long the records may take.
  public let recordsTimeout: Duration
  /// Where the purchase's usage events come from, for answers that carry them (Google Play's);
  /// every source is asked and their events are put together.
  public let usageEvents: [UsageEventLayer]

  /// Creates a gatherer over `layers`, in precedence order.
  public init(
    schema: FactSchema, layers: [LayeredFactSource.Layer],
    records: (any RecordsFactProvider)? = nil,
    recordsTimeout: Duration = .seconds(2), usageEvents: [UsageEventLayer] = []
  ) {
    self.usageEvents = usageEvents
    self.schema = schema
    self.sources = LayeredFactSource(layers: layers)
    self.records = records
    self.recordsTimeout = recordsTimeout
  }

  /// Gathers facts for a decision by `policy`.
  public func gather(_ request: some ReplyRequest, for policy: CompiledPolicy) async
    -> FactGathering.Outcome
  {
    await gather(request, reading: FactGathering.factsRead(by: policy))
  }

  /// Gathers facts for a decision that reads the facts named in `needed`.
  public func gather(_ request: some ReplyRequest, reading needed: Set<String>) async
    -> FactGathering.Outcome
  {
    // Every lookup starts before any is awaited, so they run at once, each within its timeout.
    // Records that answer at once are read here, after the sources have started: a task and a
    // thread hop of their own would cost more than the reads.
    let inline = records?.answersAtOnce == true
    let pendingRecords = inline ? nil : startRecords(request)
    let layers = sources.ask(request.keys)
    let keys = request.keys
    let events = usageEvents.map { layer in
      (
        layer,
        Deadline.start(within: layer.timeout) { try await layer.source.usageEvents(for: keys) }
      )
    }
    var facts = GatheredFacts(request: request, schema: schema)
    var failures: [FactSourceFailure] = []
    // Values in another store's words: why the answer waits if the decision reads one, else
    // values the source gave that were refused, since the source itself answered.
    var otherStoresWords: [FactSourceFailure] = []
    var atRisk: Set<String> = []
    let recordsResult = inline ? await readRecords(request) : await pendingRecords?.result
    switch recordsResult {
    case .success(let values)?:
      facts.add(
        values.filter { schema.origin(of: $0.key) == .records }, from: "records", schema: schema)
    case .failure(let failure)?:
      failures.append(failure)
      atRisk.formUnion(names(origin: .records))
    case nil: break
    }
    for (layer, pending) in zip(sources.layers, layers) {
      let result = await pending.result
      switch result.result {
      case .success(let values):
        facts.add(
          values, from: result.source, schema: schema, declared: layer.source.suppliableFacts)
        // A value in another store's words: the decision waits only if it reads that fact,
        // and no source before this one gave it.
        if let words = result.otherStoresWords {
          otherStoresWords.append(
            FactSourceFailure(source: result.source, reason: .failed(words.description)))
          atRisk.formUnion(words.unreadFacts.filter { facts.provenance[$0] == nil })
        }
      case .failure(let failure):
        failures.append(failure)
        let couldSupply =
          layer.source.suppliableFacts ?? names(origin: .adapter).union(names(origin: .records))
        atRisk.formUnion(couldSupply.filter { facts.provenance[$0] == nil })
      }
    }
    // Evidence goes with the first answer or never (Google records only the first), so an
    // answer waits for a source of events that failed, as for a fact the decision reads.
    var eventsFailed = false
    for (layer, pending) in events {
      do {
        let found = try await pending.value
        if !found.isEmpty { facts.usageEventSources.append(layer.source.name) }
        facts.usageEvents += found
      } catch is Deadline.Expired {
        failures.append(
          FactSourceFailure(source: layer.source.name, reason: .timedOut(after: layer.timeout)))
        eventsFailed = true
      } catch {
        failures.append(
          FactSourceFailure(source: layer.source.name, reason: .failed(String(describing: error))))
        eventsFailed = true
      }
    }
    facts.failures = failures
    if eventsFailed {
      return .retry(
        FactGatheringFailure(
          failures: failures + otherStoresWords,
          neededFacts: (atRisk.intersection(needed) + ["usage events"]).sorted()))
    }
    let needed = atRisk.intersection(needed)
    guard needed.isEmpty else {
      return .retry(
        FactGatheringFailure(failures: failures + otherStoresWords, neededFacts: needed.sorted()))
    }
    for passedOver in otherStoresWords {
      if case .failed(let why) = passedOver.reason {
        facts.refused.append("\(passedOver.source): \(why)")
      }
    }
    return .ready(facts)
  }

  private func startRecords(_ request: some ReplyRequest) -> RecordsLookup? {
    guard let records else { return nil }
    return RecordsLookup(
      timeout: recordsTimeout,
      lookup: Deadline.start(within: recordsTimeout) { try await records.facts(for: request) })
  }

  private func readRecords(_ request: some ReplyRequest) async -> Result<
    [String: Value], FactSourceFailure
  >? {
    guard let records else { return nil }
    do { return .success(try await records.facts(for: request)) } catch {
      return .failure(
        FactSourceFailure(source: "records", reason: .failed(String(describing: error))))
    }
  }

  private func names(origin: FactSchema.Origin) -> Set<String> {
    Set(schema.entries.filter { $0.origin == origin }.map(\.descriptor.name))
  }
}

/// The records lookup under way.
private struct RecordsLookup {
  let timeout: Duration
  let lookup: Deadline.Pending<[String: Value]>

  var result: Result<[String: Value], FactSourceFailure> {
    get async {
      do { return .success(try await lookup.value) } catch is Deadline.Expired {
        return .failure(FactSourceFailure(source: "records", reason: .timedOut(after: timeout)))
      } catch {
        return .failure(
          FactSourceFailure(source: "records", reason: .failed(String(describing: error))))
      }
    }
  }
}
