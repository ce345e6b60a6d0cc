import ReckonFacts
import Testing

@testable import ReckonEngine

/// What a 200 `deferred` answer says of a decision it could not store: to retry, not the state
/// database's own error, which is for the operator's log.
struct DeferredAnswerTests {
  @Test func aDecisionNotStoredIsAnsweredWithoutTheDatabasesError() {
    let reason = DeferReason.notStored(
      .statementFailed(operation: "INSERT INTO decisions (request_id, …", message: "disk I/O error")
    )
    #expect(!reason.answered.contains("INSERT") && !reason.answered.contains("disk"))
    #expect(reason.description.contains("disk I/O error"), "the log keeps it")
  }

  @Test func aFactSourceFailureIsAnsweredWithoutItsPathOrQuery() {
    let reason = DeferReason.facts(
      FactGatheringFailure(
        failures: [
          FactSourceFailure(
            source: "app-db", reason: .failed("cannot open /srv/secret/app.sqlite"))
        ], neededFacts: ["usage.consumed"]))
    #expect(!reason.answered.contains("/srv/secret"), "\(reason.answered)")
    #expect(reason.description.contains("/srv/secret"), "the log keeps it")
  }
}
