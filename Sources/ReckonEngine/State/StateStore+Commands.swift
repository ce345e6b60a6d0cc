import Foundation

extension StateStore {
  /// Applies an operator command to an entry and saves it. The save is refused if the entry
  /// changed after it was read (a sender in another process claimed it, say); then the command
  /// is judged again against the entry as it now is. Returns the entry as saved.
  @discardableResult
  public func modifyEntry(
    id: Int64, now: Date, _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry {
    var tries = 0
    while true {
      do {
        return try lockedThrowing {
          var entry = try entry(id: id)
          try command(&entry)
          try save(&entry, now: now)
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
