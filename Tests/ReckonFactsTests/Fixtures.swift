import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonSQLite
import ReckonTestSupport

/// Paths and builders the fact tests share: the repository's examples, temp folders, real
/// SQLite files built from SQL, the example request and small policies.
enum Fixtures {
  /// The repository root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A repository file's URL.
  static func repo(_ path: String) -> URL { root.appendingPathComponent(path) }

  /// A fresh temporary folder.
  static func temporaryFolder() throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-facts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A real SQLite file in a temp folder, built from `sql` through the C API.
  static func database(_ sql: String, in folder: URL? = nil) throws -> String {
    let path = try (folder ?? temporaryFolder()).appendingPathComponent("facts.sqlite").path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create, .noMutex])
    try database.execute(sql)
    return path
  }

  /// The example database, built from examples/facts.sql.
  static func exampleDatabase(in folder: URL? = nil) throws -> String {
    try database(String(contentsOf: repo("examples/facts.sql"), encoding: .utf8), in: folder)
  }

  /// The queries of the example configuration's `app-db` source.
  static func exampleQueries() throws -> [String: String] {
    let data = try Data(contentsOf: repo("examples/reckon.json"))
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let sources = root?["factSources"] as? [[String: Any]] ?? []
    return sources.first { $0["type"] as? String == "sqlite" }?["queries"] as? [String: String]
      ?? [:]
  }

  /// The schema with the example configuration's custom fact.
  static let schema = FactSchema(customFacts: [
    FactDescriptor(name: "custom.vip", type: .boolean, isOptional: true, summary: "A VIP customer.")
  ])

  /// The keys of the request in examples/eval/request.json.
  static let exampleKeys = RequestKeys(
    transactionId: "2000000812345678", originalTransactionId: "2000000812345678",
    appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", productId: "com.example.coins.pack500",
    bundleId: "com.example.coins")

  /// Keys with only a transaction id.
  static func keys(transaction: String?, token: String? = nil) -> RequestKeys {
    RequestKeys(
      transactionId: transaction, originalTransactionId: transaction, appAccountToken: token,
      productId: nil, bundleId: nil)
  }

  /// The request in examples/eval/request.json.
  static func exampleRequest() throws -> RefundRequest {
    try RequestFile.load(path: repo("examples/eval/request.json").path)
  }

  /// A policy compiled from `text` against `schema`.
  static func policy(_ text: String, schema: FactSchema = schema) throws -> CompiledPolicy {
    let loaded = PolicyLoader.load(
      SourceFile(path: "test.policy", text: text), schema: schema.policySchema)
    guard let policy = loaded.policy else {
      throw PolicyFailure(text: loaded.renderedDiagnostics())
    }
    return policy
  }

  struct PolicyFailure: Error {
    let text: String
  }

  /// Writes `text` to `url`.
  static func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url, options: .atomic)
  }
}

/// A fact source written as an embedder would: fixed facts, an optional delay, an optional failure.
struct StubSource: FactSource {
  let name: String
  var values: [String: Value] = [:]
  var delay: Duration? = nil
  var failure: String? = nil
  var suppliableFacts: Set<String>? = nil

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    if let delay { try await Task.sleep(for: delay) }
    if let failure { throw Failure(description: failure) }
    return values
  }
}
