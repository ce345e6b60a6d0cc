import Foundation

extension StateStore {
  /// Applies an operator command to an entry and saves it, holding the database lock so the
  /// change and the write cannot interleave with a sender's. Returns the entry as saved.
  @discardableResult
  public func modifyEntry(
    id: Int64, now: Date, _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry {
    try lockedThrowing {
      var entry = try entry(id: id)
      try command(&entry)
      try save(entry, now: now)
      return entry
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
