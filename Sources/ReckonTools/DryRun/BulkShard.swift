import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState

/// One thread's share of a bulk dry-run: a contiguous run of lines in transaction order, its
/// own scans and reader, writing its rows into the shared buffer.
final class BulkShard: @unchecked Sendable {
  private let plan: BulkDryRun
  private let lines: RequestLines
  private let order: [Int]
  private let range: Range<Int>
  private let rows: RowBuffer
  private let control: DryRunControl
  private let lower: String?
  private let upper: String?
  private let checks: Int

  init(
    run: BulkDryRun, lines: RequestLines, order: [Int], range: Range<Int>, rows: RowBuffer,
    control: DryRunControl, lower: String?, upper: String?, checks: Int
  ) {
    self.plan = run
    self.lines = lines
    self.order = order
    self.range = range
    self.rows = rows
    self.control = control
    self.lower = lower
    self.upper = upper
    self.checks = checks
  }

  /// What a shard reports besides its rows.
  struct Outcome {
    /// How many lines were other notifications.
    var ignored = 0
    /// How many requests were for apps the configuration does not list.
    var otherApps = 0
    /// Lines that could not be read, left out as asked.
    var unreadable = UnreadableLines()
    /// Whether two requests in a row were for one transaction: only then can there be copies
    /// of a notification or repeats of a request to leave out.
    var sameTransactionTwice = false
    /// Per fact source, why its bulk query could not be checked against its per-request queries.
    var uncheckedBulkQueries: [String: String] = [:]
    /// Apple's verdicts on refund requests, read among the lines.
    var verdicts = StoreVerdicts()
    /// The counts of the shard's rows, made as each row is written.
    var tally = DryRunTally()
    /// The indices of Google Play lines, left to `GooglePlayLines`.
    var googlePlay: [Int] = []
  }

  /// Decides the shard's requests.
  func run() -> Result<Outcome, DryRunError> {
    do { return .success(try decideAll()) } catch { return .failure(error) }
  }

  private func decideAll() throws(DryRunError) -> Outcome {
    var scans = try openScans()
    var slots = NotificationFactSlots(schema: plan.schema)
    let bodySlots = BodyFactSlots(plan.schema.policySchema)
    // Product and ownership types parsed once per distinct string, for the row and Apple's rules.
    var productTypes = ParsedStrings<ProductType?>()
    var ownershipTypes = ParsedStrings<InAppOwnershipType?>()
    // One set of values, cleared for each request, so no request allocates its own.
    var values = FactValues(schema: plan.schema.policySchema)
    var supplied = SuppliedFacts(
      schema: plan.schema.policySchema, notificationOnly: slots.notificationOnly)
    var reader = RequestLineReader(path: lines.path, verifier: plan.verifier)
    var outcome = Outcome()
    var skipReasons = SharedSkipReasons()
    var previousTransaction: String? = nil
    var pending = 0
    for position in range {
      if pending == (control.pace == nil ? 256 : 8) {
        control.advance(by: pending)
        pending = 0
        if control.isStopped { break }
      }
      pending += 1
      let index = order[position]
      let read: RequestLine
      do { read = try reader.read(index, of: lines) } catch {
        guard plan.skipBadLines, error.isUnreadableLine else { throw error }
        outcome.unreadable.add(error)
        continue
      }
      let request: RefundRequest
      switch consume read {
      case .request(let found): request = found
      case .otherNotification:
        outcome.ignored += 1
        continue
      case .verdict(let transactionId, let environment, let date):
        outcome.ignored += 1
        outcome.verdicts.add(
          transactionId: transactionId, environment: environment?.rawValue, at: date)
        continue
      case .otherApp:
        outcome.otherApps += 1
        continue
      case .googlePlay:
        outcome.googlePlay.append(index)
        continue
      }
      if let apps = plan.apps, !apps.contains(request) {
        outcome.otherApps += 1
        continue
      }
      if request.transactionId == previousTransaction { outcome.sameTransactionTwice = true }
      previousTransaction = request.transactionId
      values.removeAll()
      slots.fill(&values, from: request)
      supplied.start(values)
      var found = false
      let problem = try addLayers(request, &values, &supplied, &scans, found: &found)
      let type = request.transaction.rawType.flatMap {
        productTypes.value(for: $0, parse: ProductType.init(rawValue:))
      }
      let context = ConsumptionValidationContext(
        productType: type,
        ownershipType: request.transaction.rawInAppOwnershipType.flatMap {
          ownershipTypes.value(for: $0, parse: InAppOwnershipType.init(rawValue:))
        }, isAdvancedCommerce: request.transaction.isAdvancedCommerce)
      var verdict: DryRunVerdict? = nil
      var against: DryRunVerdict? = nil
      if problem == nil {
        verdict = VerdictMaker.verdict(
          plan.policy, values, context, bodySlots, sharing: &skipReasons)
        if let other = plan.against {
          against = VerdictMaker.verdict(other, values, context, bodySlots, sharing: &skipReasons)
        }
      }
      let row = DryRunRow(
        request: request, type: type, verdict: verdict, against: against, problem: problem,
        factsFound: found)
      outcome.tally.count(row)
      rows.set(index, row)
    }
    control.advance(by: pending)
    outcome.uncheckedBulkQueries = scans.unchecked
    return outcome
  }

  /// The shard's own scans and where each stands; kept on the stack rather than in the shard's
  /// properties, so the per-request loop neither copies layers nor checks exclusive access.
  private struct Scans {
    /// Per layer, its scan, nil for a lookup layer.
    var scans: [SQLiteBulkFactScan?]
    /// Per layer, the last transaction id asked of its scan.
    var lastKeys: [String?]
    /// How many more requests to also look up per request, to check the bulk query.
    var checks: Int
    /// Per layer name, why a per-request lookup made to check its bulk query failed.
    var unchecked: [String: String] = [:]
  }

  private func openScans() throws(DryRunError) -> Scans {
    var scans: [SQLiteBulkFactScan?] = []
    for layer in plan.layers {
      guard case .scan(_, let path, let sql, let source) = layer else {
        scans.append(nil)
        continue
      }
      // The request's slots, with the leniency of a source that serves other stores too.
      let schema = plan.schema.readingSources(alongside: source.schema.otherStores.stores)
      do {
        scans.append(
          try SQLiteBulkFactScan(
            path: path, sql: sql, schema: schema, reading: plan.reading, lower: lower,
            upper: upper))
      } catch {
        throw .factsFailed(error.description)
      }
    }
    return Scans(
      scans: scans, lastKeys: Array(repeating: nil, count: scans.count), checks: checks)
  }

  /// Adds each layer's facts; returns why facts are missing when a per-request source failed.
  /// `found` is set when a fact source (not Reckon's records) supplied a fact for the request,
  /// as the general path counts it from provenance.
  private func addLayers(
    _ request: RefundRequest, _ values: inout FactValues, _ supplied: inout SuppliedFacts,
    _ state: inout Scans, found: inout Bool
  ) throws(DryRunError) -> String? {
    for position in state.scans.indices {
      guard let scan = state.scans[position] else {
        switch plan.layers[position] {
        case .lookup(let source):
          if let problem = lookUp(source, request, &values, &supplied, found: &found) {
            return problem
          }
        case .history(let records):
          do { supplied.add(try records.history(for: request), to: &values) } catch {
            return "retry later: records: \(error)"
          }
        case .scan: break
        }
        continue
      }
      if let transactionId = request.transactionId,
        BulkShard.inOrder(transactionId, &state.lastKeys[position], lower: lower, upper: upper)
      {
        let facts: [SQLiteBulkFactScan.Fact]?
        do { facts = try scan.facts(for: transactionId) } catch {
          throw .factsFailed("\(plan.layers[position].name): \(error.description)")
        }
        if let facts, !facts.isEmpty { found = true }
        for fact in facts ?? [] { supplied.add(fact.slot, fact.value, to: &values) }
        // The scan reads only the facts the policy reads, so each such value is one it reads.
        let words = FactsInOtherStoresWords(facts: [:], values: scan.otherStoresValues)
        if let problem = waits(on: words, plan.layers[position].name, supplied) { return problem }
        if state.checks > 0 {
          state.checks -= 1
          try crossCheck(request, facts ?? [], plan.layers[position], &state.unchecked)
        }
      } else {
        guard case .scan(_, _, _, let source) = plan.layers[position] else { continue }
        if let problem = lookUp(source, request, &values, &supplied, found: &found) {
          return problem
        }
      }
    }
    return nil
  }

  /// Adds one per-request lookup's facts, as the gatherer does; why the request waits, when
  /// the lookup failed or left out, in another store's words, a fact the policy reads.
  private func lookUp(
    _ source: any SynchronousFactSource, _ request: RefundRequest, _ values: inout FactValues,
    _ supplied: inout SuppliedFacts, found: inout Bool
  ) -> String? {
    let facts: [String: Value]
    var words: FactsInOtherStoresWords?
    do { facts = try source.lookup(request.keys) } catch {
      guard let partly = FactsInOtherStoresWords.in(error) else {
        return "retry later: \(source.name): \(error)"
      }
      facts = partly.facts
      words = partly
    }
    if !facts.isEmpty { found = true }
    supplied.add(facts, to: &values)
    return words.flatMap { waits(on: $0, source.name, supplied) }
  }

  /// Why the request waits for values in another store's words: one of them is of a fact the
  /// policy reads that no earlier source (nor the notification) gave.
  private func waits(on words: FactsInOtherStoresWords, _ source: String, _ supplied: SuppliedFacts)
    -> String?
  {
    let schema = plan.schema.policySchema
    let missing = words.values.filter { value in
      plan.reading.contains(value.fact)
        && !(schema.slot(ofFact: value.fact).map { supplied.supplied[$0] } ?? false)
    }
    guard !missing.isEmpty else { return nil }
    return "retry later: \(source): "
      + FactsInOtherStoresWords(facts: [:], values: missing).description
  }

  /// Whether `transactionId` can be asked of a scan: not before the last id asked of it
  /// (`last`, updated), and within the shard's bounds.
  private static func inOrder(
    _ transactionId: String, _ last: inout String?, lower: String?, upper: String?
  ) -> Bool {
    if let lower, BulkKeyOrder.compare(transactionId, lower) < 0 { return false }
    if let upper, BulkKeyOrder.compare(transactionId, upper) > 0 { return false }
    if let last, BulkKeyOrder.compare(transactionId, last) < 0 { return false }
    last = transactionId
    return true
  }

  /// Checks the bulk query against the per-request queries for one request, on the facts read.
  /// A per-request lookup that fails is noted in `unchecked` (the first reason per source):
  /// `reckon serve` would fail the same way, which the dry-run must not hide.
  private func crossCheck(
    _ request: RefundRequest, _ bulk: [SQLiteBulkFactScan.Fact], _ layer: BulkFactLayer,
    _ unchecked: inout [String: String]
  ) throws(DryRunError) {
    guard case .scan(let name, _, _, let source) = layer else { return }
    let single: [String: Value]
    do { single = try source.lookup(request.keys) } catch {
      if let words = FactsInOtherStoresWords.in(error) {
        single = words.facts
      } else {
        if unchecked[name] == nil { unchecked[name] = "\(error)" }
        return
      }
    }
    let facts = plan.schema.policySchema.facts
    var fromBulk: [String: Value] = [:]
    for fact in bulk { fromBulk[facts[fact.slot].name] = fact.value }
    let compared = Set(single.keys).union(fromBulk.keys).intersection(plan.reading)
    for name in compared.sorted() where single[name] != fromBulk[name] {
      let type = plan.schema.policySchema.fact(named: name)?.type ?? .text
      throw .bulkQueryDisagrees(
        transactionId: request.transactionId ?? "?", fact: name,
        bulk: fromBulk[name]?.formatted(as: type) ?? "missing",
        perRequest: single[name]?.formatted(as: type) ?? "missing")
    }
  }
}
