import Foundation
import ReckonEngine
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Testing

/// The operator commands work on a PostgreSQL state named by `state.url` as on an SQLite file:
/// queue, prune and report open it through the same backend choice `reckon serve` makes.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct PostgresStateCommandTests {
  let folder: String
  let url: String

  init() throws {
    folder = TestScratch.folder.appendingPathComponent("reckon-pgcli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    url = try TestPostgres.freshDatabase()
    let store = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    let received = Date().addingTimeInterval(-60)
    _ = try QueueFixture.enqueue(in: store, at: received, transaction: "3001", hold: true)
    _ = try QueueFixture.enqueue(in: store, at: received, transaction: "3002", hold: false)
    let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
    let json = """
      {"apps": [{"bundleId": "com.example", "appAppleId": 1234567890, "environment": "Production", "policy": "\(policy)"}],
       "state": {"url": "\(url)"}}
      """
    try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
  }

  private func run(_ arguments: [String]) async throws -> ReckonBinary.Run {
    try await ReckonBinary.run(arguments + ["--config", folder + "/reckon.json"])
  }

  @Test func queueListsAndApprovesEntriesInTheDatabase() async throws {
    let listed = try await run(["queue", "list"])
    #expect(listed.status == 0, "\(listed.standardError)")
    #expect(listed.standardOutput.contains("\theld\t3001\t"), "\(listed.standardOutput)")
    #expect(listed.standardOutput.contains("\tpending\t3002\t"), "\(listed.standardOutput)")
    let approved = try await run(["queue", "approve", "1"])
    #expect(approved.status == 0, "\(approved.standardError)")
    let store = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    #expect(try store.entry(id: 1).state.name == "pending")
  }

  @Test func pruneAndReportReadTheDatabase() async throws {
    let pruned = try await run(["prune", "--older-than", "30", "--dry-run"])
    #expect(pruned.status == 0, "\(pruned.standardError)")
    #expect(
      pruned.standardOutput.contains("nothing to prune: no notification received before"),
      "\(pruned.standardOutput)")
    let report = try await run(["report", "outcomes", "--format", "json"])
    #expect(report.status == 0, "\(report.standardError)")
    #expect(
      report.standardOutput.hasPrefix(#"{"all":{"decisions":2,"#), "\(report.standardOutput)")
  }

  @Test func aDatabaseWithoutReckonsSchemaIsNotCreatedByAReadingCommand() async throws {
    let empty = try TestPostgres.freshDatabase()
    let listed = try await ReckonBinary.run(["report", "outcomes", "--state", empty])
    #expect(listed.status != 0)
    #expect(
      listed.standardError.contains("holds no Reckon state yet: reckon serve makes it"),
      "\(listed.standardError)")
    let probe = try PostgresStateStore(
      address: PostgresAddress(url: empty), rules: .appStore, access: .create)
    #expect(try probe.schemaVersion() == PostgresStateStore.newestSchema)
  }

  /// A database made for Reckon and not yet used is ready, as a state file not yet made is.
  @Test func doctorPassesAnEmptyDatabaseThatServeWillMakeItsTablesIn() async throws {
    let empty = try TestPostgres.freshDatabase()
    let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
    let json = """
      {"apps": [{"bundleId": "com.example", "appAppleId": 1234567890, "environment": "Production", "policy": "\(policy)"}],
       "state": {"url": "\(empty)"}}
      """
    let config = folder + "/empty.json"
    try Data(json.utf8).write(to: URL(fileURLWithPath: config))
    let doctor = try await ReckonBinary.run(["doctor", "--config", config, "--offline"])
    let line = doctor.standardOutput.split(separator: "\n").first { $0.contains(" state ") }
    #expect(line?.hasPrefix("ok") == true, "\(doctor.standardOutput)")
    #expect(line?.contains("holds no Reckon state yet") == true, "\(doctor.standardOutput)")
    // Doctor made nothing there.
    #expect(throws: StateError.noStateYet(path: empty)) {
      try PostgresStateStore(
        address: PostgresAddress(url: empty), rules: .appStore, access: .readOnly)
    }
  }

  /// A generated history, moved into the database, dry-runs from it as from the file.
  @Test func aDryRunReadsTheRequestsTheDatabaseHolds() async throws {
    let generated = folder + "/generated"
    let made = try await ReckonBinary.run([
      "generate", "--out", generated, "--count", "40", "--state", "yes",
    ])
    #expect(made.status == 0, "\(made.transcript)")
    let target = try TestPostgres.freshDatabase()
    let moved = try await ReckonBinary.run([
      "state", "migrate", "--from", generated + "/reckon-state.sqlite", "--to", target,
    ])
    #expect(moved.status == 0, "\(moved.transcript)")
    let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
    let fromFile = try await ReckonBinary.run([
      "dry-run", "--policy", policy, "--state", generated + "/reckon-state.sqlite", "--format",
      "json",
    ])
    let fromDatabase = try await ReckonBinary.run([
      "dry-run", "--policy", policy, "--state", target, "--format", "json",
    ])
    #expect(fromDatabase.status == 0, "\(fromDatabase.transcript)")
    #expect(
      fromDatabase.standardOutput.contains(#""total":40"#),
      "\(fromDatabase.standardOutput.prefix(300))")
    #expect(fromDatabase.standardOutput == fromFile.standardOutput, "the same decisions")
  }

  @Test func importHistoryWritesToTheDatabase() async throws {
    let (workspace, standIn) = try await ImportHistoryCommandTests.workspace(
      state: #"{ "url": "\#(url)" }"#)
    defer { StandInRecordTests.stop(standIn) }
    let run = try await ReckonBinary.run(
      ["import-history", "--since", "2026-12-01"], in: URL(fileURLWithPath: workspace))
    #expect(run.status == 0, "\(run.transcript)")
    #expect(run.standardOutput.contains("0 notifications in"), "\(run.transcript)")
  }
}
