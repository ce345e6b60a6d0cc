import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// One fact source as the bulk dry-run reads it: an ordered scan of a SQLite source's
/// `bulkQuery`, or a synchronous lookup per request. Layers keep the configured precedence.
public enum BulkFactLayer: Sendable {
  /// A SQLite source with a bulk query; `source` answers requests that arrive out of order.
  case scan(name: String, path: String, sql: String, source: SQLiteFactSource)
  /// A source asked once per request on the calling thread.
  case lookup(any SynchronousFactSource)
  /// Reckon's records (`history.*`), read from a state database before the request's time.
  case history(StateHistoryFacts)

  /// The source's name, for provenance and messages.
  public var name: String {
    switch self {
    case .scan(let name, _, _, _): name
    case .lookup(let source): source.name
    case .history: "records"
    }
  }
}

/// Puts one source's facts into a request's values the way `GatheredFacts.add` does: a fact is
/// taken only if no earlier source (nor the notification) supplied it, never a notification fact,
/// and only when it has the fact's type.
struct SuppliedFacts {
  private(set) var supplied: [Bool]
  private let notificationOnly: [Bool]
  private let schema: PolicySchema
  /// Each slot's type, read once: reading it through the schema's descriptors copied one (and
  /// its strings) per fact per request.
  private let types: [ValueType]

  init(schema: PolicySchema, notificationOnly: [Bool]) {
    self.schema = schema
    self.notificationOnly = notificationOnly
    supplied = Array(repeating: false, count: schema.facts.count)
    types = schema.facts.map(\.type)
  }

  /// Starts a request: the notification's facts count as supplied.
  mutating func start(_ values: FactValues) {
    for slot in supplied.indices { supplied[slot] = values.hasValue(slot: slot) }
  }

  mutating func add(_ slot: Int, _ value: Value, to values: inout FactValues) {
    guard !supplied[slot], !notificationOnly[slot], value.fits(types[slot]) else {
      return
    }
    values.set(slot: slot, to: value)
    supplied[slot] = true
  }

  mutating func add(_ facts: [String: Value], to values: inout FactValues) {
    for (name, value) in facts {
      guard let slot = schema.slot(ofFact: name) else { continue }
      add(slot, value, to: &values)
    }
  }
}
