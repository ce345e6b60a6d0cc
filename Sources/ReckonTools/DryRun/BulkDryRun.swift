import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState

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
    let shardCount = order.count < 2_000 ? 1 : min(threads, order.count)
    let bounds = (0..<shardCount).map { shard in
      (order.count * shard / shardCount)..<(order.count * (shard + 1) / shardCount)
    }
    // The shards write straight into the array the result keeps, filled on a thread of its own
    // (the array's initializer cannot wait for them asynchronously) rather than into a buffer
    // copied out afterwards: that copy of a million rows took 0.6 s, alone on one thread.
    let (decided, outcomes) = await withCheckedContinuation { continuation in
      let coordinator = Thread {
        var outcomes: [Result<BulkShard.Outcome, DryRunError>] = []
        let decided = [DryRunRow](unsafeUninitializedCapacity: order.count) { storage, count in
          let rows = RowBuffer(storage)
          outcomes = runShards(bounds, lines: lines, order: order, rows: rows, control: control)
          count = rows.closeUp()
        }
        continuation.resume(returning: (decided, outcomes))
      }
      coordinator.start()
    }
    var ignored = 0
    var otherApps = 0
    var unreadable = UnreadableLines()
    var sameTransactionTwice = false
    var uncheckedBulkQueries: [String: String] = [:]
    var verdicts = StoreVerdicts()
    var tally = DryRunTally()
    var googlePlay: [Int] = []
    for outcome in outcomes {
      switch outcome {
      case .success(let shard):
        ignored += shard.ignored
        otherApps += shard.otherApps
        unreadable.merge(shard.unreadable)
        sameTransactionTwice = sameTransactionTwice || shard.sameTransactionTwice
        uncheckedBulkQueries.merge(shard.uncheckedBulkQueries) { first, _ in first }
        verdicts.merge(shard.verdicts)
        tally.merge(shard.tally)
        googlePlay += shard.googlePlay
      case .failure(let error): throw error
      }
    }
    // Google Play lines are decided apart and counted when their rows are added.
    let leftOut = ignored + otherApps + unreadable.count + googlePlay.count
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
    result.googlePlayLines = googlePlay.sorted()
    // Copies are of one transaction, which the order puts side by side, unless a shard boundary
    // falls inside its lines or its lines had no quick key to order by (signed payloads).
    let straddled = bounds.dropFirst().contains {
      lines.quickKey(order[$0.lowerBound - 1]) == lines.quickKey(order[$0.lowerBound])
    }
    let unordered = order.last.map { lines.quickKey($0).isEmpty } ?? false
    if sameTransactionTwice || straddled || unordered { result.removeCopies(verdicts: verdicts) }
    // The shards counted every row they made; rows left out as copies take a count again.
    if result.duplicates + result.repeats == 0 { result.tally = tally }
    return result
  }

  /// Runs a shard per range, each on a thread of its own, and waits for them all.
  private func runShards(
    _ bounds: [Range<Int>], lines: RequestLines, order: [Int], rows: RowBuffer,
    control: DryRunControl
  ) -> [Result<BulkShard.Outcome, DryRunError>] {
    let outcomes = ShardOutcomes(count: bounds.count)
    let finished = DispatchGroup()
    for (shard, range) in bounds.enumerated() {
      let worker = BulkShard(
        run: self, lines: lines, order: order, range: range, rows: rows, control: control,
        lower: shard == 0
          ? nil : String(decoding: lines.quickKey(order[range.lowerBound]), as: UTF8.self),
        upper: shard == bounds.count - 1
          ? nil : String(decoding: lines.quickKey(order[range.upperBound - 1]), as: UTF8.self),
        checks: shard == 0 ? crossChecks : 0)
      finished.enter()
      let thread = Thread {
        outcomes.set(shard, worker.run())
        finished.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    finished.wait()
    return outcomes.all
  }
}

/// Rows written by several threads into the storage of the array the result keeps, each to its
/// own indices, then closed up over the slots of lines that gave no row.
final class RowBuffer: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<DryRunRow>
  private let filled: UnsafeMutableBufferPointer<Bool>

  /// Rows to be written into `storage`, uninitialized.
  init(_ storage: UnsafeMutableBufferPointer<DryRunRow>) {
    self.storage = storage
    RowBuffer.adviseHugePages(UnsafeMutableRawBufferPointer(storage))
    filled = .allocate(capacity: storage.count)
    filled.initialize(repeating: false)
  }

  deinit { filled.deallocate() }

  /// Asks the kernel to back `memory` with 2 MiB pages where it allows them on request
  /// (`transparent_hugepage` set to `madvise`, as Debian's kernels ship): each 4 KiB page of a
  /// million rows was a page fault of its own, a few percent of the run.
  private static func adviseHugePages(_ memory: UnsafeMutableRawBufferPointer) {
    let huge = 2 << 20
    guard let base = memory.baseAddress, memory.count >= 2 * huge else { return }
    let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
    let end = (Int(bitPattern: base) + memory.count) & ~(huge - 1)
    guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
    _ = madvise(aligned, end - start, MADV_HUGEPAGE)
  }

  /// Writes the row of line `index`; each index at most once.
  func set(_ index: Int, _ row: consuming DryRunRow) {
    (storage.baseAddress! + index).initialize(to: row)
    filled[index] = true
  }

  /// Moves the rows down over the empty slots, keeping their order, and returns how many
  /// there are; call once, after every shard is done.
  func closeUp() -> Int {
    var count = 0
    for index in storage.indices where filled[index] {
      if index != count {
        (storage.baseAddress! + count).moveInitialize(from: storage.baseAddress! + index, count: 1)
      }
      count += 1
    }
    return count
  }
}

/// What each shard returned, set from their threads.
final class ShardOutcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var outcomes: [Result<BulkShard.Outcome, DryRunError>?]

  init(count: Int) { outcomes = Array(repeating: nil, count: count) }

  func set(_ shard: Int, _ outcome: Result<BulkShard.Outcome, DryRunError>) {
    lock.withLock { outcomes[shard] = outcome }
  }

  /// Every shard's outcome; call once they have all set theirs.
  var all: [Result<BulkShard.Outcome, DryRunError>] { lock.withLock { outcomes.map { $0! } } }
}
