import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// What `reckon generate` checks before it writes anything: the files it would replace, and
/// the policy the configuration names (and, with a state database, decides by).
public enum GeneratedFiles {
  /// Why generating was refused; nothing was written.
  public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Files that would be replaced or deleted.
    case wouldReplace([String])
    /// The policy cannot be read.
    case policyUnreadable(path: String, reason: String)
    /// The policy does not check; the rendered diagnostics follow.
    case policyDoesNotCheck(path: String, diagnostics: String)

    /// A sentence naming the files or the policy.
    public var description: String {
      switch self {
      case .wouldReplace(let paths):
        "these files exist and would be replaced: \(paths.joined(separator: ", ")); choose another --out folder, or give --force to replace them"
      case .policyUnreadable(let path, let reason): "--policy \(path): \(reason)"
      case .policyDoesNotCheck(let path, let diagnostics):
        "--policy \(path) does not check:\n\(diagnostics)"
      }
    }
  }

  /// The files generating into `folder` writes, or deletes beside a database it replaces
  /// (SQLite's -wal and -shm), with `state` the state database too.
  public static func paths(in folder: String, state: Bool) -> [String] {
    names(state: state).map { folder + "/" + $0 }
  }

  /// The names of the files `paths(in:state:)` lists.
  public static func names(state: Bool) -> [String] {
    var databases = ["facts.sqlite"]
    if state { databases.append("reckon-state.sqlite") }
    return ["requests.jsonl", "reckon.json"]
      + databases.flatMap { name in ["", "-wal", "-shm"].map { name + $0 } }
  }

  /// Refuses when any file generating would write or delete already exists.
  public static func checkNothingReplaced(in folder: String, state: Bool) throws(Refusal) {
    let existing = paths(in: folder, state: state).filter {
      FileManager.default.fileExists(atPath: $0)
    }
    guard existing.isEmpty else { throw .wouldReplace(existing) }
  }

  /// Loads and checks `path` against the schema of the generated configuration (the standard
  /// facts and its `custom.vip`), as `GeneratedHistory.write` will.
  public static func checkPolicy(_ path: String) throws(Refusal) {
    // The generated reckon.json declares exactly this custom fact on its SQLite source.
    let schema = FactSchema(customFacts: [
      FactDescriptor(
        name: "custom.vip", type: .boolean, isOptional: true,
        summary: "Declared by fact source app-db.")
    ])
    let loaded: PolicyLoader.Result
    do { loaded = try PolicyFiles.load(path, schema: schema) } catch {
      throw .policyUnreadable(path: path, reason: Self.reason(error))
    }
    guard loaded.policy != nil else {
      throw .policyDoesNotCheck(path: path, diagnostics: loaded.renderedDiagnostics())
    }
  }

  private static func reason(_ failure: PolicyFiles.Failure) -> String {
    switch failure {
    case .notFound: "no such file"
    case .unreadable(_, let reason): reason
    case .emptyFolder(_, let fileExtension): "has no .\(fileExtension) files"
    }
  }
}
