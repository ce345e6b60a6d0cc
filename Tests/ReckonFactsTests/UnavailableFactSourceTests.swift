import Foundation
import ReckonEngine
import ReckonFacts
import ReckonSQLite
import Testing

/// A fact source whose file cannot be read now (missing, locked) starts unopened with
/// `.openLater` and opens at a later lookup; one configured wrongly stops start-up all the same.
struct UnavailableFactSourceTests {
  typealias Configured = FactSourceConfigurationTests

  @Test func aSQLiteFileMissingAtStartIsOpenedAtALaterLookup() async throws {
    let folder = try Configured.exampleFolder()
    let database = folder.appendingPathComponent("facts.sqlite")
    try FileManager.default.removeItem(at: database)
    let setup = try Configured.load(
      try Configured.exampleRoot(in: folder), in: folder, unavailable: .openLater)
    #expect(setup.unopened.map(\.source) == ["app-db"])
    let problem = try #require(setup.unopened.first?.problem)
    #expect(problem.key == "factSources[1].path")
    #expect(problem.problem.hasPrefix("cannot open \(database.path)"), "\(problem)")
    #expect(setup.unopened.first?.description.contains("fact source 'app-db'") == true)

    let gatherer = setup.gatherer()
    let request = try Fixtures.exampleRequest()
    guard case .retry(let failure) = await gatherer.gather(request, reading: ["usage.consumed"])
    else {
      Issue.record("facts of a source not yet opened were taken as known")
      return
    }
    #expect(failure.failures.map(\.source) == ["app-db"])
    #expect(failure.description.contains("app-db failed: factSources[1].path: cannot open"))

    _ = try Fixtures.exampleDatabase(in: folder)
    guard case .ready(let facts) = await gatherer.gather(request, reading: ["usage.consumed"])
    else {
      Issue.record("the source was not opened once its file appeared")
      return
    }
    #expect(facts.provenance["usage.consumed"] == "app-db")
  }

  @Test func aJSONFileMissingAtStartIsOpenedAtALaterLookup() async throws {
    let folder = try Configured.exampleFolder()
    let file = folder.appendingPathComponent("facts.json")
    let moved = folder.appendingPathComponent("facts.json.away")
    try FileManager.default.moveItem(at: file, to: moved)
    let setup = try Configured.load(
      try Configured.exampleRoot(in: folder), in: folder, unavailable: .openLater)
    #expect(setup.unopened.map(\.problem.key) == ["factSources[0].path"])
    let gatherer = setup.gatherer()
    let request = try Fixtures.exampleRequest()
    guard case .retry = await gatherer.gather(request, reading: ["customer.override"]) else {
      Issue.record("facts of a source not yet opened were taken as known")
      return
    }
    try FileManager.default.moveItem(at: moved, to: file)
    guard case .ready(let facts) = await gatherer.gather(request, reading: ["customer.override"])
    else {
      Issue.record("the source was not opened once its file appeared")
      return
    }
    #expect(facts.provenance["customer.override"] == "support-notes")
  }

  /// Preparing a query reads the schema, which a writer's exclusive lock blocks: that is the
  /// file being unavailable now, not a query that does not compile.
  @Test func aDatabaseLockedAtStartIsUnavailableNotAMalformedQuery() async throws {
    let folder = try Configured.exampleFolder()
    let writer = try SQLiteDatabase(
      path: folder.appendingPathComponent("facts.sqlite").path, options: [.readWrite, .noMutex])
    try writer.execute("PRAGMA journal_mode = DELETE;")
    var root = try Configured.exampleRoot(in: folder)
    Configured.editSource(1) { $0["busyTimeoutMs"] = 50 }(&root)
    try writer.execute("BEGIN EXCLUSIVE; UPDATE usage SET units_used = 1;")

    let refused = try #require(throws: ConfigurationError.self) {
      try Configured.load(root, in: folder)
    }
    #expect(refused.key == "factSources[1].path", "\(refused)")
    #expect(refused.problem.hasSuffix("database is locked"), "\(refused)")
    let setup = try Configured.load(root, in: folder, unavailable: .openLater)
    #expect(setup.unopened.map(\.problem) == [refused])
    let request = try Fixtures.exampleRequest()
    guard case .retry = await setup.gatherer().gather(request, reading: ["usage.consumed"]) else {
      Issue.record("facts of a locked source were taken as known")
      return
    }
    try writer.execute("ROLLBACK;")
    guard case .ready = await setup.gatherer().gather(request, reading: ["usage.consumed"]) else {
      Issue.record("the source was not opened once the lock was gone")
      return
    }
  }

  /// Every configuration the refusing setup stops on, except a file that is missing, stops the
  /// setup that opens unavailable sources later too.
  @Test(
    arguments: Configured.broken.filter {
      !["json file missing", "sqlite file missing"].contains($0.name)
    })
  func aSourceConfiguredWronglyStopsStartUpEvenWhenSourcesMayOpenLater(
    _ broken: Configured.Broken
  ) throws {
    let folder = try Configured.exampleFolder()
    var root = try Configured.exampleRoot(in: folder)
    broken.change(&root)
    let error = try #require(throws: ConfigurationError.self) {
      try Configured.load(root, in: folder, unavailable: .openLater)
    }
    #expect(error.key == broken.key, "\(error)")
    #expect(error.problem.contains(broken.problem), "\(error)")
  }

  @Test func aFileThatIsNotADatabaseIsConfiguredWrongly() throws {
    let folder = try Configured.exampleFolder()
    let database = folder.appendingPathComponent("facts.sqlite")
    try Data("not a database, just text that is long enough to have a header".utf8)
      .write(to: database)
    let error = try #require(throws: ConfigurationError.self) {
      try Configured.load(
        try Configured.exampleRoot(in: folder), in: folder, unavailable: .openLater)
    }
    #expect(error.problem.contains("file is not a database"), "\(error)")
  }
}
