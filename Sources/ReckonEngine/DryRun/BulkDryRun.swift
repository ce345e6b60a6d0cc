import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// Decides every request of a requests file, fast: the lines are visited in transaction order,
/// split over a few threads, each merging its share with an ordered scan of the facts; no trace,
/// facts converted once per row. Gives the same verdicts as gathering and deciding each request
/// on its own (`SequentialDryRun`).
public struct BulkDryRun: Sendable {
  /// The policy to try.
  public let policy: CompiledPolicy
  /// The policy to compare with, if any.
  public let against: CompiledPolicy?
  /// The fact schema both were checked against.
  public let schema: FactSchema
  /// The fact sources, in precedence order.
  public let layers: [BulkFactLayer]
  /// Verifies `signedPayload` lines; nil refuses them.
  public let verifier: NotificationVerifier?
  /// The configured apps, whose requests alone are decided; nil decides every request.
  public let apps: ConfiguredApps?
  /// How many threads share the work.
  public var threads: Int
  /// Whether lines that cannot be read (`DryRunError.isUnreadableLine`) are counted and left
  /// out rather than stopping the run.
  public var skipBadLines = false
  /// How many first scanned requests are also looked up per request, to check `bulkQuery`.
  public var crossChecks = 200
  /// The facts either policy's decisions can read; scans leave out the others' columns.
  public let reading: Set<String>

  /// Creates a bulk dry-run.
  public init(
    policy: CompiledPolicy, against: CompiledPolicy?, schema: FactSchema, layers: [BulkFactLayer],
    verifier: NotificationVerifier? = nil, apps: ConfiguredApps? = nil,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.apps = apps
    self.policy = policy
    self.against = against
    self.schema = schema
    self.layers = layers
    self.verifier = verifier
    self.threads = max(1, threads)
    reading = FactGathering.factsRead(by: policy).union(
      against.map(FactGathering.factsRead(by:)) ?? [])
  }

  /// Runs over every line, on its own threads; `control` reports progress and can stop it.
  public func run(_ lines: RequestLines, control: DryRunControl = DryRunControl())
    async throws(DryRunError) -> DryRunResult
  {
    let order = lines.orderedByTransaction()
    control.expect(order.count)
    let rows = RowBuffer(count: order.count)
    let shardCount = order.count < 2_000 ? 1 : min(threads, order.count)
    let bounds = (0..<shardCount).map { shard in
      (order.count * shard / shardCount)..<(order.count * (shard + 1) / shardCount)
    }
    let outcomes = await withCheckedContinuation { continuation in
      let collector = ShardCollector(count: shardCount, continuation: continuation)
      for (shard, range) in bounds.enumerated() {
        let worker = BulkShard(
          run: self, lines: lines, order: order, range: range, rows: rows, control: control,
          lower: shard == 0
            ? nil : String(decoding: lines.quickKey(order[range.lowerBound]), as: UTF8.self),
          upper: shard == shardCount - 1
            ? nil : String(decoding: lines.quickKey(order[range.upperBound - 1]), as: UTF8.self),
          checks: shard == 0 ? crossChecks : 0)
        let thread = Thread { collector.finish(shard, worker.run()) }
        thread.stackSize = 1 << 20
        thread.start()
      }
    }
    var ignored = 0
    var otherApps = 0
    var unreadable = UnreadableLines()
    var sameTransactionTwice = false
    var uncheckedBulkQueries: [String: String] = [:]
    var verdicts = AppleVerdicts()
    for outcome in outcomes {
      switch outcome {
      case .success(let shard):
        ignored += shard.ignored
        otherApps += shard.otherApps
        unreadable.merge(shard.unreadable)
        sameTransactionTwice = sameTransactionTwice || shard.sameTransactionTwice
        uncheckedBulkQueries.merge(shard.uncheckedBulkQueries) { first, _ in first }
        verdicts.merge(shard.verdicts)
      case .failure(let error): throw error
      }
    }
    let decided = rows.collect()
    let leftOut = ignored + otherApps + unreadable.count
    let linesRead = decided.count + leftOut
    let stopped = control.isStopped && linesRead < order.count
    // Unread lines may hold other notifications: counted as requests, the total is an upper bound.
    var result = DryRunResult(
      rows: decided, ignored: ignored, total: order.count - leftOut,
      stopped: stopped, policy: policy, against: against)
    if stopped {
      result.linesRead = linesRead
      result.lines = order.count
    }
    result.otherApps = otherApps
    result.unreadable = unreadable
    result.uncheckedBulkQueries = uncheckedBulkQueries
    // Copies are of one transaction, which the order puts side by side, unless a shard boundary
    // falls inside its lines or its lines had no quick key to order by (signed payloads).
    let straddled = bounds.dropFirst().contains {
      lines.quickKey(order[$0.lowerBound - 1]) == lines.quickKey(order[$0.lowerBound])
    }
    let unordered = order.last.map { lines.quickKey($0).isEmpty } ?? false
    if sameTransactionTwice || straddled || unordered { result.removeCopies(verdicts: verdicts) }
    return result
  }
}

/// Rows written by several threads, each to its own indices.
final class RowBuffer: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<DryRunRow?>
  private var collected = false

  init(count: Int) {
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil)
  }

  deinit {
    if !collected { _ = storage.deinitialize() }
    storage.deallocate()
  }

  func set(_ index: Int, _ row: DryRunRow) { storage[index] = row }

  /// The rows in order, moved out rather than copied (a million rows' strings would otherwise
  /// be retained and released once each on one thread); call once, after every shard is done.
  func collect() -> [DryRunRow] {
    precondition(!collected)
    collected = true
    return [DryRunRow](unsafeUninitializedCapacity: storage.count) { buffer, count in
      count = 0
      for index in storage.indices {
        guard let row = (storage.baseAddress! + index).move() else { continue }
        (buffer.baseAddress! + count).initialize(to: row)
        count += 1
      }
    }
  }
}

/// Waits for every shard and hands back what each returned.
final class ShardCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<BulkShard.Outcome, DryRunError>?]
  private var remaining: Int
  private let continuation: CheckedContinuation<[Result<BulkShard.Outcome, DryRunError>], Never>

  init(
    count: Int, continuation: CheckedContinuation<[Result<BulkShard.Outcome, DryRunError>], Never>
  ) {
    results = Array(repeating: nil, count: count)
    remaining = count
    self.continuation = continuation
  }

  func finish(_ shard: Int, _ result: Result<BulkShard.Outcome, DryRunError>) {
    let done = lock.withLock { () -> Bool in
      results[shard] = result
      remaining -= 1
      return remaining == 0
    }
    if done { continuation.resume(returning: results.map { $0! }) }
  }
}
