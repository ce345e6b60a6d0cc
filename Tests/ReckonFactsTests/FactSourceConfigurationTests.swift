import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonSQLite
import ReckonSupport
import Testing

struct FactSourceConfigurationTests {
  /// A folder holding the example configuration, its JSON facts and a facts.sqlite built from SQL.
  static func exampleFolder() throws -> URL {
    let folder = try Fixtures.temporaryFolder()
    _ = try Fixtures.exampleDatabase(in: folder)
    for name in ["reckon.json", "facts.json"] {
      try FileManager.default.copyItem(
        at: Fixtures.repo("examples/\(name)"), to: folder.appendingPathComponent(name))
    }
    return folder
  }

  static func load(
    _ root: [String: Any], in folder: URL, unavailable: FactSourceSetup.Unavailable = .refuse
  ) throws -> FactSourceSetup {
    let data = try JSONSerialization.data(withJSONObject: root)
    let object = try #require(try JSONValue.parse(data).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(object, path: ""), baseDirectory: folder.path)
    return try FactSourceSetup(configuration.factSources, unavailable: unavailable)
  }

  static func exampleRoot(in folder: URL) throws -> [String: Any] {
    let data = try Data(contentsOf: folder.appendingPathComponent("reckon.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theExampleConfigurationLoadsAndGathersTheExampleRequest() async throws {
    let folder = try Self.exampleFolder()
    let configuration = try ReckonConfiguration.load(
      path: folder.appendingPathComponent("reckon.json").path)
    let setup = try FactSourceSetup(configuration.factSources)
    #expect(setup.layers.map(\.source.name) == ["support-notes", "app-db"])
    #expect(setup.layers.map(\.timeout) == [.milliseconds(500), .milliseconds(2_000)])
    #expect(setup.schema.origin(of: "custom.vip") == .adapter)
    let outcome = await setup.gatherer().gather(
      try Fixtures.exampleRequest(), reading: ["usage.consumed"])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.provenance["customer.override"] == "support-notes")
    #expect(facts.provenance["usage.consumed"] == "app-db")
  }

  struct Broken: CustomTestStringConvertible, @unchecked Sendable {
    let name: String
    let change: (inout [String: Any]) -> Void
    let key: String
    let problem: String
    var testDescription: String { name }
  }

  static func editSource(_ index: Int, _ edit: @escaping (inout [String: Any]) -> Void) -> (
    inout [String: Any]
  ) -> Void {
    { root in
      var sources = root["factSources"] as! [[String: Any]]
      edit(&sources[index])
      root["factSources"] = sources
    }
  }

  static func editQuery(_ name: String, _ sql: String) -> (inout [String: Any]) -> Void {
    editSource(1) { source in
      var queries = source["queries"] as! [String: String]
      queries[name] = sql
      source["queries"] = queries
    }
  }

  static let broken: [Broken] = [
    Broken(
      name: "unknown source type", change: editSource(0) { $0["type"] = "mysql" },
      key: "factSources[0].type", problem: "must be sqlite or json"),
    Broken(
      name: "zero timeout", change: editSource(0) { $0["timeoutMs"] = 0 },
      key: "factSources[0].timeoutMs", problem: "must be greater than 0"),
    Broken(
      name: "json file missing", change: editSource(0) { $0["path"] = "nope.json" },
      key: "factSources[0].path", problem: "no such file or folder"),
    Broken(
      name: "json source with queries",
      change: editSource(0) { $0["queries"] = [:] as [String: String] },
      key: "factSources[0].queries", problem: "is not a known key"),
    Broken(
      name: "duplicate source names", change: editSource(1) { $0["name"] = "support-notes" },
      key: "factSources[1].name", problem: "is used by another fact source"),
    Broken(
      name: "a source named as Reckon's records", change: editSource(1) { $0["name"] = "records" },
      key: "factSources[1].name", problem: "names the facts Reckon gives itself"),
    Broken(
      name: "a source named as the notification",
      change: editSource(0) { $0["name"] = "notification" },
      key: "factSources[0].name", problem: "give the source another name"),
    Broken(
      name: "misspelt key", change: editSource(1) { $0["busyTimeout"] = 5 },
      key: "factSources[1].busyTimeout", problem: "(did you mean 'busyTimeoutMs'?)"),
    Broken(
      name: "sqlite file missing", change: editSource(1) { $0["path"] = "missing.sqlite" },
      key: "factSources[1].path", problem: "cannot open"),
    Broken(
      name: "bulk query not text", change: editSource(1) { $0["bulkQuery"] = 3 },
      key: "factSources[1].bulkQuery", problem: "must be text"),
    Broken(
      name: "no queries", change: editSource(1) { $0["queries"] = nil },
      key: "factSources[1].queries", problem: "is required"),
    Broken(
      name: "query not text", change: editSource(1) { $0["queries"] = ["purchase": 3] },
      key: "factSources[1].queries.purchase", problem: "must be text"),
    Broken(
      name: "misspelt fact column",
      change: editQuery(
        "support", #"SELECT preference AS "customer.overide" FROM support_overrides"#),
      key: "factSources[1].queries.support", problem: "(did you mean 'customer.override'?)"),
    Broken(
      name: "malformed query", change: editQuery("support", "SELECT preference AS FROM"),
      key: "factSources[1].queries.support",
      problem: "does not compile"),
    Broken(
      name: "unknown parameter",
      change: editQuery(
        "support",
        #"SELECT preference AS "customer.override" FROM support_overrides WHERE account_token = :token"#
      ),
      key: "factSources[1].queries.support", problem: "unknown parameter :token"),
    Broken(
      name: "custom fact without prefix",
      change: editSource(1) { $0["customFacts"] = ["vip": "boolean"] },
      key: "factSources[1].customFacts.vip", problem: "must be named custom.NAME"),
    Broken(
      name: "custom fact name not ASCII",
      change: editSource(1) {
        $0["customFacts"] = ["custom.vip": "boolean", "custom.café": "text"]
      },
      key: "factSources[1].customFacts.custom.café", problem: "a word of ASCII letters"),
    Broken(
      name: "timeout under a millisecond", change: editSource(0) { $0["timeoutMs"] = 0.4 },
      key: "factSources[0].timeoutMs", problem: "whole number"),
    Broken(
      name: "custom fact of unknown type",
      change: editSource(1) { $0["customFacts"] = ["custom.vip": "bool"] },
      key: "factSources[1].customFacts.custom.vip", problem: "unknown type 'bool'"),
    Broken(
      name: "custom fact declared twice with two types",
      change: editSource(0) { $0["customFacts"] = ["custom.vip": "number"] },
      key: "factSources[1].customFacts.custom.vip", problem: "different type"),
    Broken(
      name: "custom fact column not declared", change: editSource(1) { $0["customFacts"] = nil },
      key: "factSources[1].queries.customer",
      problem: #"column "custom.vip" is not a fact"#),
    Broken(
      name: "production app without its Apple id",
      change: { root in
        var apps = root["apps"] as! [[String: Any]]
        apps[0]["appAppleId"] = nil
        root["apps"] = apps
      }, key: "apps[0].appAppleId", problem: "is required in Production"),
  ]

  @Test(arguments: broken)
  func aBrokenConfigurationNamesTheKey(_ broken: Broken) throws {
    let folder = try Self.exampleFolder()
    var root = try Self.exampleRoot(in: folder)
    broken.change(&root)
    let error = try #require(throws: ConfigurationError.self) { try Self.load(root, in: folder) }
    #expect(error.key == broken.key, "\(error)")
    #expect(error.problem.contains(broken.problem), "\(error)")
  }

  /// `reckon check --config` reads the sources' schema without opening them, and a misspelt key
  /// is as wrong there as for serve.
  @Test(arguments: [
    (0, "timeot", "factSources[0].timeot"), (1, "customFact", "factSources[1].customFact"),
  ])
  func theSchemaAloneRefusesAMisspeltKey(_ index: Int, _ key: String, _ path: String) throws {
    let folder = try Self.exampleFolder()
    var root = try Self.exampleRoot(in: folder)
    Self.editSource(index) { $0[key] = 5 }(&root)
    let data = try JSONSerialization.data(withJSONObject: root)
    let object = try #require(try JSONValue.parse(data).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(object, path: ""), baseDirectory: folder.path)
    let error = try #require(throws: ConfigurationError.self) {
      try FactSourceSetup.schema(configuration.factSources)
    }
    #expect(error.key == path, "\(error)")
    #expect(error.problem.contains("is not a known key"), "\(error)")
  }

  @Test func aConfigurationWithAKeyTwiceIsRefusedNamingTheKey() throws {
    let folder = try Self.exampleFolder()
    let path = folder.appendingPathComponent("reckon.json").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let twice = try #require(text.range(of: "{")).upperBound
    // The first of two "state" members would be silently dropped by a lenient parser.
    try Data(
      text.replacingCharacters(in: twice..<twice, with: #""state": {"path": "/tmp/x"},"#).utf8
    )
    .write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: ConfigurationError.self) {
      try ReckonConfiguration.load(path: path)
    }
    #expect(error.description.contains("reckon.json"))
    #expect(error.description.contains("appears twice"))
  }

  @Test func aLockedDatabaseIsASourceFailureAndTheRequestIsRetried() async throws {
    let folder = try Self.exampleFolder()
    let writer = try SQLiteDatabase(
      path: folder.appendingPathComponent("facts.sqlite").path, options: [.readWrite, .noMutex])
    // In WAL mode a writer never blocks readers, and this test needs it to.
    try writer.execute("PRAGMA journal_mode = DELETE;")
    var root = try Self.exampleRoot(in: folder)
    Self.editSource(1) { $0["busyTimeoutMs"] = 50 }(&root)
    let setup = try Self.load(root, in: folder)
    try writer.execute("BEGIN EXCLUSIVE; UPDATE usage SET units_used = 1;")
    let outcome = await setup.gatherer().gather(
      try Fixtures.exampleRequest(), reading: ["usage.consumed"])
    try writer.execute("ROLLBACK;")
    guard case .retry(let failure) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(failure.failures.map(\.source) == ["app-db"])
    #expect(
      failure.description.contains("app-db failed: query 'customer' failed: database is locked"),
      "\(failure)")
  }
}
