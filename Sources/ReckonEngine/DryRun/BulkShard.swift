import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy

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
  private var checks: Int
  private var scans: [SQLiteBulkFactScan?] = []
  private var lastKeys: [String?] = []

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

  /// Decides the shard's requests; returns how many lines were other notifications.
  func run() -> Result<Int, DryRunError> {
    do { return .success(try decideAll()) } catch { return .failure(error) }
  }

  private func decideAll() throws(DryRunError) -> Int {
    try openScans()
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
    var ignored = 0
    var pending = 0
    for position in range {
      if pending == (control.pace == nil ? 256 : 8) {
        control.advance(by: pending)
        pending = 0
        if control.isStopped { break }
      }
      pending += 1
      let index = order[position]
      let number = Int(lines.numbers[index])
      let read = try lines.withLine(index) { line throws(DryRunError) in
        try reader.read(line, number: number)
      }
      guard let request = read else {
        ignored += 1
        continue
      }
      values.removeAll()
      slots.fill(&values, from: request)
      supplied.start(values)
      let problem = try addLayers(request, &values, &supplied)
      let type = request.transaction.rawType.flatMap {
        productTypes.value(for: $0, parse: ProductType.init(rawValue:))
      }
      let context = ConsumptionValidationContext(
        productType: type,
        ownershipType: request.transaction.rawInAppOwnershipType.flatMap {
          ownershipTypes.value(for: $0, parse: InAppOwnershipType.init(rawValue:))
        })
      let verdict =
        problem == nil ? VerdictMaker.verdict(plan.policy, values, context, bodySlots) : nil
      let against =
        problem == nil
        ? plan.against.map { VerdictMaker.verdict($0, values, context, bodySlots) } : nil
      rows.set(
        index,
        DryRunRow(
          request: request, type: type, verdict: verdict, against: against, problem: problem))
    }
    control.advance(by: pending)
    return ignored
  }

  private func openScans() throws(DryRunError) {
    for layer in plan.layers {
      guard case .scan(_, let path, let sql, _) = layer else {
        scans.append(nil)
        lastKeys.append(nil)
        continue
      }
      do {
        scans.append(
          try SQLiteBulkFactScan(
            path: path, sql: sql, schema: plan.schema, reading: plan.reading, lower: lower,
            upper: upper))
      } catch {
        throw .factsFailed(error.description)
      }
      lastKeys.append(nil)
    }
  }

  /// Adds each layer's facts; returns why facts are missing when a per-request source failed.
  private func addLayers(
    _ request: RefundRequest, _ values: inout FactValues, _ supplied: inout SuppliedFacts
  ) throws(DryRunError) -> String? {
    for (position, layer) in plan.layers.enumerated() {
      switch layer {
      case .scan(let name, _, _, let source):
        if let transactionId = request.transactionId, inOrder(transactionId, position) {
          let facts: [SQLiteBulkFactScan.Fact]?
          do { facts = try scans[position]!.facts(for: transactionId) } catch {
            throw .factsFailed("\(name): \(error.description)")
          }
          for fact in facts ?? [] { supplied.add(fact.slot, fact.value, to: &values) }
          if checks > 0 { try crossCheck(request, facts ?? [], source) }
        } else {
          do { supplied.add(try source.lookup(request.keys), to: &values) } catch {
            return "retry later: \(name): \(error.description)"
          }
        }
      case .lookup(let source):
        do { supplied.add(try source.lookup(request.keys), to: &values) } catch {
          return "retry later: \(source.name): \(error)"
        }
      }
    }
    return nil
  }

  /// Whether `transactionId` can be asked of the scan: not before the last id asked, and within
  /// the shard's bounds.
  private func inOrder(_ transactionId: String, _ position: Int) -> Bool {
    if let lower, BulkKeyOrder.compare(transactionId, lower) < 0 { return false }
    if let upper, BulkKeyOrder.compare(transactionId, upper) > 0 { return false }
    if let last = lastKeys[position], BulkKeyOrder.compare(transactionId, last) < 0 {
      return false
    }
    lastKeys[position] = transactionId
    return true
  }

  /// Checks the bulk query against the per-request queries for one request, on the facts read.
  private func crossCheck(
    _ request: RefundRequest, _ bulk: [SQLiteBulkFactScan.Fact], _ source: SQLiteFactSource
  ) throws(DryRunError) {
    checks -= 1
    guard let single = try? source.lookup(request.keys) else { return }
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
