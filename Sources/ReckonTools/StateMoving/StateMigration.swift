import Foundation
import ReckonState

/// Moves a state's whole history (requests, decisions, the outbox with its attempts, outcomes,
/// pauses and holds, each app's last live policy) from one backend to another, table by table
/// in batches, keeping every id, then checks that the target holds at least every row the
/// source does. Rows the target has already are skipped, so a move stopped part-way, or run
/// twice, is finished by running it again.
public struct StateMigration: Sendable {
  /// One table's result.
  public struct TableCount: Hashable, Sendable {
    /// The table.
    public let table: StateTable
    /// Rows in the source.
    public let source: Int
    /// Rows written to the target by this run.
    public let written: Int
    /// Rows in the target afterwards.
    public let target: Int
  }

  /// Why a move did not finish.
  public enum Failure: Error, CustomStringConvertible {
    /// A read or write failed part-way through `table`; what was written stays, and running
    /// again goes on from there.
    case stopped(table: StateTable, cause: StateError)
    /// The target holds fewer rows of these tables than the source after the move.
    case countMismatch([TableCount])

    /// One sentence naming what failed.
    public var description: String {
      switch self {
      case .stopped(let table, let cause):
        "moving \(table.rawValue) stopped: \(cause); what was moved stays, and running again goes on from there"
      case .countMismatch(let counts):
        "the target holds fewer rows than the source: "
          + counts.map { "\($0.table.rawValue) \($0.target) of \($0.source)" }
          .joined(separator: ", ")
      }
    }
  }

  let source: any StateExporter
  let target: any StateImporter
  let batchSize: Int

  /// A move from `source` to `target`, `batchSize` rows a transaction.
  public init(from source: any StateExporter, to target: any StateImporter, batchSize: Int = 500) {
    self.source = source
    self.target = target
    self.batchSize = max(1, batchSize)
  }

  /// How many rows the source holds in all, for a progress bar's total.
  public func totalRows() throws(StateError) -> Int {
    var total = 0
    for table in StateTable.allCases { total += try source.rowCount(table) }
    return total
  }

  /// Moves everything, calling `progress` with the rows read so far after each batch; the
  /// counts per table.
  public func run(progress: (Int) -> Void = { _ in }) throws(Failure) -> [TableCount] {
    var read = 0
    var counts: [TableCount] = []
    for table in StateTable.allCases {
      do throws(StateError) {
        var key: Int64 = 0
        var written = 0
        while true {
          let batch = try source.exportRows(table, after: key, limit: batchSize)
          guard !batch.rows.isEmpty else { break }
          written += try target.importRows(batch)
          read += batch.rows.count
          key = batch.lastKey
          progress(read)
        }
        counts.append(
          TableCount(
            table: table, source: try source.rowCount(table), written: written,
            target: try target.rowCount(table)))
      } catch {
        throw .stopped(table: table, cause: error)
      }
    }
    do throws(StateError) { try target.finishImport() } catch {
      throw .stopped(table: .requests, cause: error)
    }
    let short = counts.filter { $0.target < $0.source }
    guard short.isEmpty else { throw .countMismatch(short) }
    return counts
  }
}
