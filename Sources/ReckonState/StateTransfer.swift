import Foundation

/// One value of a row moved from one state backend to another.
public enum StateCell: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case bytes(Data)
  case boolean(Bool)
}

/// The tables of a state's history, in the order they move (each refers only to those before
/// it), and the columns every backend exports and imports them by.
public enum StateTable: String, CaseIterable, Sendable {
  case requests
  case decisions
  case outbox
  case attempts
  case outcomes
  case appPauses = "app_pauses"
  case appThrottles = "app_throttles"
  /// Each app's last live policy (`PolicyArchive`); a target that keeps one for the app already
  /// keeps its own, as for pauses.
  case livePolicies = "live_policies"

  /// What a column holds.
  public enum Kind: Sendable {
    case integer, real, text, bytes, boolean
    /// A JSON object, as text.
    case json
  }

  /// The columns, by name and kind, in the order a batch's cells come.
  public var columns: [(name: String, kind: Kind)] {
    switch self {
    case .requests:
      [
        ("id", .integer), ("notification_uuid", .text), ("notification_type", .text),
        ("transaction_id", .text), ("original_transaction_id", .text),
        ("app_account_token", .text), ("bundle_id", .text), ("environment", .text),
        ("received_at", .real), ("deadline", .real), ("raw_notification", .bytes),
        ("repeat_of", .integer), ("imported", .boolean), ("retry_at", .real),
        ("retries", .integer), ("retry_reason", .text), ("lapsed_at", .real),
        ("price", .integer), ("currency", .text), ("reason", .text), ("product_type", .text),
        ("summarized", .boolean),
      ]
    case .decisions:
      [
        ("id", .integer), ("request_id", .integer), ("decided_at", .real),
        ("policy_name", .text), ("policy_version", .text), ("policy_sha256", .text),
        ("action", .text), ("rule", .text), ("reason", .text), ("body", .bytes),
        ("facts_json", .bytes), ("explanation_json", .bytes),
      ]
    case .outbox:
      [
        ("id", .integer), ("decision_id", .integer), ("request_id", .integer),
        ("bundle_id", .text), ("environment", .text), ("transaction_id", .text),
        ("context", .json), ("body", .bytes), ("state", .text), ("state_at", .real),
        ("state_reason", .text), ("deadline", .real), ("release_at", .real),
        ("attempts", .integer), ("interrupted_sends", .integer), ("last_status", .integer),
        ("last_error", .text), ("revision", .integer), ("created_at", .real),
        ("updated_at", .real),
      ]
    case .attempts:
      [
        ("id", .integer), ("entry_id", .integer), ("started_at", .real),
        ("finished_at", .real), ("http_status", .integer), ("error_code", .integer),
        ("error_message", .text), ("result", .text),
      ]
    case .outcomes:
      [
        ("id", .integer), ("notification_uuid", .text), ("request_id", .integer),
        ("type", .text), ("transaction_id", .text), ("original_transaction_id", .text),
        ("app_account_token", .text), ("occurred_at", .real), ("revocation_type", .text),
        ("revocation_percentage", .integer), ("bundle_id", .text), ("environment", .text),
      ]
    case .appPauses:
      [("bundle_id", .text), ("environment", .text), ("paused_until", .real), ("reason", .text)]
    case .appThrottles:
      [("bundle_id", .text), ("environment", .text), ("held_until", .real)]
    case .livePolicies:
      [
        ("bundle_id", .text), ("environment", .text), ("source", .text), ("text", .text),
        ("text_sha256", .text), ("live_at", .real),
      ]
    }
  }

  /// Whether the table's rows carry an `id` the importer keeps (the first column).
  public var hasId: Bool { columns.first?.name == "id" }

  /// The columns that tell one state's row from another's under the same id: a row the target
  /// holds already is the same row only if these agree.
  public var identityColumns: [String] {
    switch self {
    case .requests, .outcomes: ["notification_uuid"]
    case .decisions: ["request_id"]
    case .outbox: ["decision_id"]
    case .attempts: ["entry_id", "started_at"]
    case .appPauses, .appThrottles, .livePolicies: []
    }
  }
}

/// Some rows of one table, read out in the exporter's order, and where the next batch starts.
public struct StateRowBatch: Sendable {
  /// The table.
  public let table: StateTable
  /// The rows, each with a cell per column of `table.columns`.
  public var rows: [[StateCell]]
  /// The exporter's key of the last row, for the next `exportRows(after:)`.
  public var lastKey: Int64

  /// A batch of `rows`.
  public init(table: StateTable, rows: [[StateCell]], lastKey: Int64) {
    self.table = table
    self.rows = rows
    self.lastKey = lastKey
  }
}

/// A state whose whole history can be read out table by table, to move it to another backend.
public protocol StateExporter: Sendable {
  /// At most `limit` rows of `table` after the key `after` (0 for the first batch).
  func exportRows(_ table: StateTable, after key: Int64, limit: Int) throws(StateError)
    -> StateRowBatch
  /// How many rows `table` holds.
  func rowCount(_ table: StateTable) throws(StateError) -> Int
}

/// A state that takes the rows another exported, keeping their ids and skipping rows it holds
/// already, so moving the same history twice changes nothing.
public protocol StateImporter: Sendable {
  /// Writes the batch's rows it does not hold yet, in one transaction; how many it wrote.
  func importRows(_ batch: StateRowBatch) throws(StateError) -> Int
  /// The `identityColumns` of the rows of `table` it holds with ids from `ids`, by id.
  func heldIdentities(_ table: StateTable, ids: ClosedRange<Int64>) throws(StateError)
    -> [Int64: [StateCell]]
  /// How many rows `table` holds.
  func rowCount(_ table: StateTable) throws(StateError) -> Int
  /// Makes the ids the state gives new rows follow the imported ones.
  func finishImport() throws(StateError)
}
