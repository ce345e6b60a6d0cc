import Foundation
import ReckonState

extension SQLiteStateStore {
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
      } catch StateError.changedConcurrently where tries < 3 {
        tries += 1
      }
    }
  }

  private func lockedThrowing<T>(_ body: () throws -> T) throws -> T {
    var result: Result<T, any Error>!
    try locked { () throws(StateError) in result = Result { try body() } }
    return try result.get()
  }

  /// The decision an outbox entry was made from (`OutboxEntry.decisionId`), as stored, so
  /// `reckon queue show` can say why a held entry was held and on which facts.
  public func decision(id: Int64) throws(StateError) -> DecisionRecord? {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT policy_name, policy_version, policy_sha256, action, rule, reason, body,
          facts_json, explanation_json, decided_at, \(jsonFormat("decisions")) FROM decisions
        WHERE id = ?
        """, [.integer(id)]
      ).first.map { row throws(StateError) in
        let json = try DecisionJSON(facts: row.blob(7) ?? Data(), explanation: row.blob(8))
          .written(format: row.int(10) ?? 0, decisionId: id)
        return DecisionRecord(
          policyName: row.text(0) ?? "", policyVersion: row.text(1),
          policySHA256: row.text(2) ?? "",
          action: row.text(3) ?? "", rule: row.text(4) ?? "", reason: row.text(5),
          body: row.blob(6),
          factsJSON: json.facts, explanationJSON: json.explanation,
          decidedAt: row.date(9) ?? .distantPast)
      }
    }
  }
}
