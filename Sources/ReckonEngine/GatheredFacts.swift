import ReckonFacts
import ReckonPolicy

/// The facts of one request, each with the source that supplied it.
public struct GatheredFacts: Hashable, Sendable {
  /// The values, in the policy's slots.
  public internal(set) var values: FactValues
  /// Which source supplied each fact, by fact name: `notification`, `records`, or an adapter's name.
  public internal(set) var provenance: [String: String]
  /// Facts an adapter offered that Reckon refused, with why (e.g. an attempt to override the notification).
  public internal(set) var refused: [String]
  /// Fact sources that failed or timed out for this request without the decision needing them.
  public internal(set) var failures: [FactSourceFailure] = []
  /// The purchase's recorded uses, from the usage-event sources, for answers that carry them.
  public internal(set) var usageEvents: [UsageEvent] = []
  /// The sources that gave some of `usageEvents`, in configured order.
  public internal(set) var usageEventSources: [String] = []

  /// Facts from the notification alone.
  public init(request: some ReplyRequest, schema: FactSchema) {
    var values = FactValues(schema: schema.policySchema)
    var provenance: [String: String] = [:]
    provenance.reserveCapacity(schema.policySchema.facts.count)
    var refused: [String] = []
    for (name, value) in request.notificationFacts() {
      do {
        try values.set(name, to: value)
        provenance[name] = "notification"
      } catch {
        // An unsigned (Xcode) payload can carry what no fact holds, a currency `usd` say: said.
        refused.append("notification: \(error.description)")
      }
    }
    self.values = values
    self.provenance = provenance
    self.refused = refused
  }

  /// Adds facts from one source; earlier sources win, notification facts can never be replaced,
  /// and a source that `declared` what it supplies gives nothing else.
  public mutating func add(
    _ facts: [String: Value], from source: String, schema: FactSchema,
    declared: Set<String>? = nil
  ) {
    // Refusals are said in the order of the facts' names; the facts themselves go in any order
    // (each name once), so only the refusals, nearly always none, are sorted.
    var refusals: [(name: String, reason: String)] = []
    for (name, value) in facts {
      if schema.origin(of: name) == .notification {
        refusals.append(
          (name, "\(source) supplied \(name), which only the signed notification may give"))
        continue
      }
      // Whether a failed source matters is judged by what it declares: a fact it gives beyond
      // that would go missing unnoticed the day it fails, and the request decided without it.
      if let declared, !declared.contains(name) {
        refusals.append(
          (name, "\(source) supplied \(name), which it does not declare it supplies"))
        continue
      }
      guard provenance[name] == nil else { continue }
      do {
        try values.set(name, to: value)
        provenance[name] = source
      } catch {
        refusals.append((name, "\(source): \(error.description)"))
      }
    }
    refused += refusals.sorted { $0.name < $1.name }.map(\.reason)
  }

  /// Whether a fact source supplied any fact: not only the notification and Reckon's records.
  package var fromFactSources: Bool {
    provenance.values.contains { $0 != "notification" && $0 != "records" }
  }

  /// Replaces a fact whatever gave it, the notification too: for benchmarks and tests that vary
  /// requests without rebuilding them, and for a what-if request, which has no notification.
  public mutating func overrideForBenchmark(
    _ name: String, _ value: Value, from source: String? = nil
  ) {
    try? values.set(name, to: value)
    if let source { provenance[name] = source }
  }
}
