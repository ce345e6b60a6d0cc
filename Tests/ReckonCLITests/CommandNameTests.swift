import Foundation
import ReckonEngine
import ReckonStatePostgres
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// The tool's own words (a command's name, `help`, `version`) and a command called with no words
/// at all: a mistake is a usage error that says what was meant, never the overview and success.
struct CommandNameTests {
  @Test func aMistypedCommandGetsTheClosestName() async throws {
    let run = try await ReckonBinary.run(["chek", "policies"])
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "reckon: unknown command 'chek' (did you mean 'check'?); 'reckon --help' lists them\n",
      "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func helpForACommandThatDoesNotExistIsAUsageError() async throws {
    let unknown = try await ReckonBinary.run(["help", "nosuch"])
    #expect(unknown.status == 2)
    #expect(
      unknown.standardError
        == "reckon help: unknown command 'nosuch'; 'reckon --help' lists them\n",
      "\(unknown.standardError)")
    #expect(unknown.standardOutput.isEmpty)
    let mistyped = try await ReckonBinary.run(["help", "chek"])
    #expect(mistyped.status == 2)
    #expect(
      mistyped.standardError.hasPrefix(
        "reckon help: unknown command 'chek' (did you mean 'check'?); 'reckon --help' lists them\n"),
      "\(mistyped.standardError)")
  }

  @Test(arguments: [["help"], ["help", "--help"], ["--help"]])
  func helpWithoutACommandPrintsTheOverview(_ words: [String]) async throws {
    let run = try await ReckonBinary.run(words)
    #expect(run.status == 0)
    #expect(run.standardOutput.hasPrefix("reckon: answers App Store refund requests"))
  }

  @Test func versionNamesTheReleaseAndTheSchemaANewDatabaseGets() async throws {
    let long = try await ReckonBinary.run(["--version"])
    let word = try await ReckonBinary.run(["version"])
    #expect(long.status == 0)
    #expect(word.status == 0)
    #expect(long.standardOutput == word.standardOutput)
    let lines = long.standardOutput.split(separator: "\n")
    #expect(lines.first == "reckon \(ReckonVersion.release)", "\(long.standardOutput)")
    let path = TestScratch.folder.appendingPathComponent("version-\(UUID().uuidString).sqlite").path
    let written = try SQLiteStateStore(path: path, rules: .appStore).schemaVersion()
    #expect(
      lines.dropFirst().first?.hasPrefix("state database schema \(written) (reads ") == true,
      "\(long.standardOutput)")
    #expect(
      lines.dropFirst(2).first
        == "PostgreSQL state schema \(PostgresStateStore.newestSchema) (reads \(PostgresStateStore.newestSchema))",
      "\(long.standardOutput)")
  }

  @Test(arguments: ["queue", "keys"])
  func aCommandThatNeedsASubcommandPrintsItsUsageWhenCalledBare(_ name: String) async throws {
    // The package root has no reckon.json: the usage must come before looking for one.
    let run = try await ReckonBinary.run([name])
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix("Usage: reckon \(name) "), "\(run.standardError)")
    #expect(!run.standardError.contains("reckon.json: "), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func shortOptionsStandForTheirLongOnesAndDoubleDashEndsThem() async throws {
    let short = try await ReckonBinary.run([
      "eval", "-p", "policies/targeted.policy", "--fact", "usage.consumed=10%", "-f", "json",
    ])
    #expect(short.status == 0, "\(short.standardError)")
    #expect(short.standardOutput.hasPrefix("{"))
    let version = try await ReckonBinary.run(["-V"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("reckon "))
    let ended = try await ReckonBinary.run(["check", "--", "--format"])
    #expect(ended.status == 1)
    #expect(ended.standardError.contains("--format"), "\(ended.standardError)")
  }

  @Test func aMistypedQueueCommandIsNamedBeforeAnyConfigurationIsRead() async throws {
    let run = try await ReckonBinary.run(["queue", "lst", "--config", "/nonexistent/reckon.json"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("(did you mean 'list'?)"), "\(run.standardError)")
  }

  @Test func everyCommandsHelpListsItsExitStatuses() async throws {
    for command in ["check", "eval", "test", "dry-run", "queue", "serve", "version"] {
      let run = try await ReckonBinary.run([command, "--help"])
      #expect(run.standardOutput.contains("Exit status:\n  0    "), "\(command)")
      #expect(run.standardOutput.contains("  2    a usage mistake"), "\(command)")
    }
  }
}

/// `--format json` for the commands whose output a script reads.
struct MachineReadableOutputTests {
  @Test func versionAndGenerateWriteOneJSONObject() async throws {
    let version = try await ReckonBinary.run(["version", "--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(version.standardOutput.utf8)) as? [String: Any])
    #expect(object["release"] is String)
    #expect(object["stateSchema"] is Int)
    #expect(object["postgresStateSchema"] as? Int == PostgresStateStore.newestSchema)
    let folder = TestScratch.folder.appendingPathComponent("generate-\(UUID().uuidString)").path
    let generated = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "20", "--format", "json", "-q",
    ])
    #expect(generated.status == 0, "\(generated.standardError)")
    #expect(generated.standardError.isEmpty, "\(generated.standardError)")
    let written = try #require(
      try JSONSerialization.jsonObject(with: Data(generated.standardOutput.utf8))
        as? [String: Any])
    #expect(written["requests"] as? Int == 20)
    #expect((written["files"] as? [String])?.contains("\(folder)/requests.jsonl") == true)
  }

  @Test func generateSaysWhatItIsDoingUnlessQuiet() async throws {
    let folder = TestScratch.folder.appendingPathComponent("generate-\(UUID().uuidString)").path
    let run = try await ReckonBinary.run(["generate", "--out", folder, "--count", "20"])
    #expect(run.standardError.contains("reckon generate: writing 20 requests"))
  }
}

extension MachineReadableOutputTests {
  /// A configuration of the test key saved as `keyFile`, with the test key's id.
  static func keyConfiguration(keyFile: String) throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent("keys-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = folder.appendingPathComponent(keyFile)
    try FileManager.default.copyItem(atPath: TestKey.path, toPath: key.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
    let configuration = folder.appendingPathComponent("reckon.json")
    try Data(
      """
      {"apps": [{"bundleId": "\(TestKey.bundleId)", "environment": "Sandbox", "policy": "p.policy"}],
       "appStore": {"issuerId": "\(TestKey.issuerId)", "keyId": "\(TestKey.keyId)",
                    "privateKeyPath": "\(keyFile)"}}
      """.utf8
    ).write(to: configuration)
    return configuration
  }

  @Test func keysCheckWritesEachAppsTokenHeaderAndClaims() async throws {
    let configuration = try Self.keyConfiguration(keyFile: "key.p8")
    let run = try await ReckonBinary.run([
      "keys", "check", "--config", configuration.path, "--format", "json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let apps = try #require(report["apps"] as? [[String: Any]])
    #expect((apps.first?["header"] as? [String: Any])?["kid"] as? String == TestKey.keyId)
    #expect((apps.first?["claims"] as? [String: Any])?["bid"] as? String == TestKey.bundleId)
    #expect(report["signs"] as? Bool == true)
    // URLs as written, not `https:\/\/…`, for whoever reads or greps the output.
    #expect(run.standardOutput.contains(#""url" : "https://api.storekit-sandbox.apple.com""#))
  }

  /// A key file App Store Connect named for another key id is refused, as doctor refuses it.
  @Test func keysCheckRefusesAKeyFileNamedForAnotherKeyId() async throws {
    let configuration = try Self.keyConfiguration(keyFile: "AuthKey_OTHER12345.p8")
    let run = try await ReckonBinary.run(["keys", "check", "--config", configuration.path])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains(
        "names for key OTHER12345, but appStore.keyId is \(TestKey.keyId)"),
      "\(run.standardError)")
    #expect(!run.standardOutput.contains("the key loads and signs"))
  }
}

/// The changelog's latest release is the version the tool reports.
struct ChangelogTests {
  @Test func theLatestReleaseInTheChangelogIsTheVersion() throws {
    let text = try String(
      contentsOf: ReckonBinary.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") })
    #expect(heading.hasPrefix("## \(ReckonVersion.release) — "), "\(heading)")
    let parts = ReckonVersion.release.split(separator: ".")
    #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
  }
}
