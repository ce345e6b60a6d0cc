import ReckonPolicy
import ReckonSupport

/// Several fact sources in a configured order, asked at once, each within its own timeout.
///
/// Precedence, like a multiplexing log handler's: the first source (in configured order) that
/// supplies a fact wins; later sources only fill facts still missing. A source that throws or
/// times out supplies nothing and is reported, never silently skipped.
public struct LayeredFactSource: FactSource {
  /// One source and how long it may take.
  public struct Layer: Sendable {
    /// The source.
    public let source: any FactSource
    /// Its time limit per lookup.
    public let timeout: Duration
    /// The threads its lookups run on: a source that blocks a thread blocks one of its own,
    /// never the pool the webhook answers on nor another source's.
    let threads: ThreadExecutor
    /// Whether its lookups are hung.
    let watch = LookupWatch()

    /// Threads each source's lookups may take at once; more wait their turn.
    static let threadsPerSource = 4

    /// Creates a layer.
    public init(_ source: any FactSource, timeout: Duration = .seconds(2)) {
      self.source = source
      self.timeout = timeout
      self.threads = ThreadExecutor(
        label: "reckon-facts-\(source.name)", width: Self.threadsPerSource)
    }

    /// Whether the source is hung: its latest lookup ran out of time, or one that did has not
    /// returned yet.
    public var isHung: Bool { watch.isHung }

    /// Whether the source's latest lookup failed within its time (not hung, but answering
    /// with an error: a file missing or refused, a database that does not open).
    public var isFailing: Bool { watch.isFailing }
  }

  /// What one layer gave for one request.
  public struct LayerResult: Sendable {
    /// The source's name.
    public let source: String
    /// Its facts, or why there are none.
    public let result: Result<[String: Value], FactSourceFailure>
    /// The values it left out of its facts, in another store's words, if any.
    public var otherStoresWords: FactsInOtherStoresWords? = nil
  }

  /// The provenance name used when the layered source itself is one layer of another.
  public let name: String
  /// The layers, highest precedence first.
  public let layers: [Layer]

  /// Creates a layered source; `layers` are in precedence order.
  public init(name: String = "layered", layers: [Layer]) {
    self.name = name
    self.layers = layers
  }

  /// The names of the sources hung now, in layer order.
  public var hungSources: [String] { layers.filter(\.isHung).map(\.source.name) }

  /// The names of the sources whose latest lookup failed, in layer order.
  public var failingSources: [String] { layers.filter(\.isFailing).map(\.source.name) }

  /// The union of what the layers can supply, or nil when one does not say.
  public var suppliableFacts: Set<String>? {
    var all: Set<String> = []
    for layer in layers {
      guard let facts = layer.source.suppliableFacts else { return nil }
      all.formUnion(facts)
    }
    return all
  }

  /// Asks every layer at once and returns each one's result, in layer order.
  public func collect(for keys: RequestKeys) async -> [LayerResult] {
    var results: [LayerResult] = []
    for pending in ask(keys) { results.append(await pending.result) }
    return results
  }

  /// A layer's lookup under way: started by `ask(_:)`, its result awaited with `result`.
  public struct PendingLayer: Sendable {
    let source: String
    let timeout: Duration
    let lookup: Deadline.Pending<[String: Value]>
    let watch: LookupWatch
    let ticket: LookupWatch.Ticket

    /// The layer's facts, or why there are none (a failure, or its timeout).
    public var result: LayerResult {
      get async {
        do {
          let facts = try await lookup.value
          watch.answered()
          return LayerResult(source: source, result: .success(facts))
        } catch let error where FactsInOtherStoresWords.in(error) != nil {
          // The source answered: the data holds another store's word, not a failure of it.
          watch.answered()
          let words = FactsInOtherStoresWords.in(error)!
          return LayerResult(source: source, result: .success(words.facts), otherStoresWords: words)
        } catch is Deadline.Expired {
          watch.expired(ticket)
          return LayerResult(
            source: source,
            result: .failure(FactSourceFailure(source: source, reason: .timedOut(after: timeout))))
        } catch {
          if !(error is CancellationError) { watch.failed() }
          let message = String(describing: error)
          return LayerResult(
            source: source,
            result: .failure(FactSourceFailure(source: source, reason: .failed(message))))
        }
      }
    }
  }

  /// Starts every layer's lookup at once, each within its timeout on the layer's own threads,
  /// in layer order. One task per layer and no task group: the webhook asks on every request.
  public func ask(_ keys: RequestKeys) -> [PendingLayer] {
    layers.map { layer in
      let source = layer.source
      let watch = layer.watch
      let ticket = LookupWatch.Ticket()
      return PendingLayer(
        source: source.name, timeout: layer.timeout,
        lookup: Deadline.start(within: layer.timeout, on: layer.threads) {
          defer { watch.returned(ticket) }
          return try await source.facts(for: keys)
        }, watch: watch, ticket: ticket)
    }
  }

  /// The merged facts, first layer winning; throws `FactSourceFailures` if any layer failed.
  public func facts(for keys: RequestKeys) async throws -> [String: Value] {
    var merged: [String: Value] = [:]
    var failures: [FactSourceFailure] = []
    for layer in await collect(for: keys) {
      switch layer.result {
      case .success(let facts): merged.merge(facts) { first, _ in first }
      case .failure(let failure): failures.append(failure)
      }
      if let words = layer.otherStoresWords {
        failures.append(FactSourceFailure(source: layer.source, reason: .failed(words.description)))
      }
    }
    guard failures.isEmpty else { throw FactSourceFailures(failures) }
    return merged
  }
}
