import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport

@testable import ReckonTools

/// Generated past requests with their facts in a temporary folder, built once per count and seed,
/// with the shipped policies loaded against the generated configuration's schema.
final class DryRunFixture: @unchecked Sendable {
  let folder: String
  let generator: PastRequestGenerator
  let files: GeneratedDataWriter.Files
  let configuration: ReckonConfiguration
  let setup: FactSourceSetup

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private static let lock = NSLock()
  nonisolated(unsafe) private static var made: [String: DryRunFixture] = [:]

  /// The shared fixture of `count` requests from `seed`.
  static func shared(count: Int = 3_000, seed: UInt64 = 11) throws -> DryRunFixture {
    try lock.withLock {
      let key = "\(count)-\(seed)"
      if let fixture = made[key] { return fixture }
      let fixture = try DryRunFixture(count: count, seed: seed)
      made[key] = fixture
      return fixture
    }
  }

  init(count: Int, seed: UInt64) throws {
    folder =
      TestScratch.folder.appendingPathComponent(
        "reckon-dryrun-\(UUID().uuidString)"
      ).path
    generator = PastRequestGenerator(count: count, seed: seed)
    files = try GeneratedDataWriter.write(
      generator, to: folder, policyPath: Self.policyPath("targeted"))
    configuration = try ReckonConfiguration.load(path: files.configuration)
    setup = try FactSourceSetup(configuration.factSources)
  }

  static func policyPath(_ name: String) -> String {
    repository.appendingPathComponent("policies/\(name).policy").path
  }

  /// A shipped policy, checked against the fixture's schema.
  func policy(_ name: String) throws -> CompiledPolicy {
    try require(
      try PolicyFiles.load(Self.policyPath(name), schema: setup.schema).policy, "policy \(name)")
  }

  /// A policy from source text, written to the fixture's folder.
  func policy(source: String, named name: String) throws -> CompiledPolicy {
    let path = folder + "/\(name).policy"
    try Data(source.utf8).write(to: URL(fileURLWithPath: path))
    return try require(try PolicyFiles.load(path, schema: setup.schema).policy, "policy \(name)")
  }

  /// The bulk layers of the generated configuration.
  /// A bulk dry-run of the fixture's requests with the shipped policy `name`, against none.
  func bulkRun(_ name: String) async throws -> DryRunResult {
    try await BulkDryRun(
      policy: try policy(name), against: nil, schema: setup.schema, layers: try layers()
    ).run(RequestLines(path: files.requests))
  }

  func layers() throws -> [BulkFactLayer] {
    try require(try DryRunSetup.bulkLayers(configuration, setup), "bulk layers")
  }

  /// Every request read one at a time, for the reference path.
  func pastRequests() throws -> [PastRequest] {
    try DryRunSetup.pastRequests(RequestLines(path: files.requests), verifier: nil).requests
  }
}

/// `#require` outside a test body: throws when nil.
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
  guard let value else { throw FixtureError(what: what) }
  return value
}

struct FixtureError: Error, CustomStringConvertible {
  let what: String
  var description: String { "\(what) was nil" }
}
