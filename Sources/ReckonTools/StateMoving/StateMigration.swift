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
    /// The target holds a row of `table` with the id `id` that is not the source's (another
    /// state's history): nothing of the batch it is in was written.
    case otherHistory(table: StateTable, id: Int64, source: [StateCell], target: [StateCell])
    /// The target holds `count` of a batch's rows of `table` under other ids (the same
    /// notification recorded there too); the rest of the batch was written.
    case heldUnderOtherIds(table: StateTable, count: Int)

    /// One sentence naming what failed.
    public var description: String {
      switch self {
      case .stopped(let table, let cause):
        "moving \(table.rawValue) stopped: \(cause); what was moved stays, and running again goes on from there"
      case .countMismatch(let counts):
        "the target holds fewer rows than the source: "
          + counts.map { "\($0.table.rawValue) \($0.target) of \($0.source)" }
          .joined(separator: ", ")
      case .otherHistory(let table, let id, let source, let target):
        "the database holds another state's history: its \(table.rawValue) row \(id) has "
          + "\(Self.named(table, target)) where the file's has \(Self.named(table, source)); "
          + "nothing of it was overwritten. Move into a new database, or one only a move of this "
          + "file wrote to"
      case .heldUnderOtherIds(let table, let count):
        "the database holds \(count) of the file's \(table.rawValue) rows under other ids (the same "
          + "notifications recorded there too), so what refers to them would not be the file's; "
          + "move into a new database, or one only a move of this file wrote to"
      }
    }

    /// Identity cells for a sentence: `notification_uuid 'A1…'`.
    private static func named(_ table: StateTable, _ cells: [StateCell]) -> String {
      zip(table.identityColumns, cells).map { name, cell in
        switch cell {
        case .null: "no \(name)"
        case .integer(let number): "\(name) \(number)"
        case .real(let number): "\(name) \(number)"
        case .text(let text): "\(name) '\(text)'"
        case .bytes(let data): "\(name) of \(data.count) bytes"
        case .boolean(let flag): "\(name) \(flag)"
        }
      }.joined(separator: " and ")
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

  /// The first row of `batch` whose id the target holds for another row (skipping it as moved
  /// already would leave the source's row out and say everything moved), and how many of the
  /// batch's rows the target holds as they are.
  private func otherHistory(in batch: StateRowBatch) throws(StateError) -> (Failure?, held: Int) {
    let table = batch.table
    let identity = table.identityColumns
    guard table.hasId, !identity.isEmpty else { return (nil, 0) }
    let ids = batch.rows.compactMap { row -> Int64? in
      if case .integer(let id) = row.first { id } else { nil }
    }
    guard let low = ids.min(), let high = ids.max() else { return (nil, 0) }
    let held = try target.heldIdentities(table, ids: low...high)
    guard !held.isEmpty else { return (nil, 0) }
    let at = identity.compactMap { name in table.columns.firstIndex { $0.name == name } }
    var same = 0
    for row in batch.rows {
      guard case .integer(let id) = row.first, let theirs = held[id] else { continue }
      let mine = at.map { row[$0] }
      guard zip(mine, theirs).allSatisfy(Self.same) else {
        return (.otherHistory(table: table, id: id, source: mine, target: theirs), same)
      }
      same += 1
    }
    return (nil, same)
  }

  /// Whether two cells hold the same value, a whole number and a real alike.
  private static func same(_ mine: StateCell, _ theirs: StateCell) -> Bool {
    switch (mine, theirs) {
    case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): Double(a) == b
    default: mine == theirs
    }
  }

  /// Moves everything, calling `progress` with the rows read so far after each batch; the
  /// counts per table.
  public func run(progress: (Int) -> Void = { _ in }) throws(Failure) -> [TableCount] {
    var read = 0
    var counts: [TableCount] = []
    for table in StateTable.allCases {
      var other: Failure?
      do throws(StateError) {
        var key: Int64 = 0
        var written = 0
        while true {
          let batch = try source.exportRows(table, after: key, limit: batchSize)
          guard !batch.rows.isEmpty else { break }
          let (conflict, held) = try otherHistory(in: batch)
          other = conflict
          if other != nil { break }
          let wrote = try target.importRows(batch)
          written += wrote
          // A row neither written nor held under its id conflicted on its unique key: the
          // target holds it under another id, so the rows referring to this id would not be
          // the file's.
          if wrote + held < batch.rows.count, table.hasId {
            other = .heldUnderOtherIds(table: table, count: batch.rows.count - wrote - held)
            break
          }
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
      if let other { throw other }
    }
    do throws(StateError) { try target.finishImport() } catch {
      throw .stopped(table: .requests, cause: error)
    }
    let short = counts.filter { $0.target < $0.source }
    guard short.isEmpty else { throw .countMismatch(short) }
    return counts
  }
}
