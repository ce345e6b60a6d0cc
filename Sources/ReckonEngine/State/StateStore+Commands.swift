import Foundation

extension StateStore {
  /// Applies an operator command to an entry and saves it, with `note` (who did what) in its
  /// attempts as an `operator` row, so `reckon queue show` tells how the entry got where it is.
  /// The save is refused if the entry changed after it was read (a sender in another process
  /// claimed it, say); then the command is judged again against the entry as it now is.
  /// Returns the entry as saved.
  @discardableResult
  public func modifyEntry(
    id: Int64, now: Date, note: String? = nil,
    _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry {
    var tries = 0
    while true {
      do {
        return try lockedThrowing {
          var entry = try entry(id: id)
          try command(&entry)
          let record = note.map {
            DeliveryAttempt(
              entryId: id, startedAt: now, finishedAt: now, httpStatus: nil, errorCode: nil,
              errorMessage: $0, result: "operator")
          }
          try save(&entry, attempt: record, now: now)
          return entry
        }
      } catch StateDatabaseError.changedConcurrently where tries < 3 {
        tries += 1
      }
    }
  }

  private func lockedThrowing<T>(_ body: () throws -> T) throws -> T {
    var result: Result<T, any Error>!
    try locked { () throws(StateDatabaseError) in result = Result { try body() } }
    return try result.get()
  }

  /// The decision's policy, rule and action for an entry, for `reckon queue show`.
  public func decisionSummary(id: Int64) throws(StateDatabaseError) -> (
    policy: String, rule: String, action: String
  )? {
    try locked { () throws(StateDatabaseError) in
      try connection.query(
        "SELECT policy_name, rule, action FROM decisions WHERE id = ?", [.integer(id)]
      ).first.map {
        ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? "")
      }
    }
  }
}
