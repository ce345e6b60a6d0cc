import Foundation
import ReckonStandIn
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonGooglePlay

@Suite struct GoogleSigningKeysTests {
  @Test func fetchedKeysAreKeptInTheKeysFileAndReadFromItWithoutTheNetwork() async throws {
    let world = try GooglePlayWorld()
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reckon-google-keys-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: cache) }
    let kid = world.standIn.identity.keyId
    let keys = GoogleSigningKeys(
      .fetched(url: world.standIn.certificatesURL!, transport: world.transport, cacheFile: cache))
    #expect(await keys.key(kid, now: Date()) != nil)
    #expect(FileManager.default.fileExists(atPath: cache))
    world.standIn.shutdown()
    let offline = GoogleSigningKeys(
      .fetched(url: world.standIn.certificatesURL!, transport: world.transport, cacheFile: cache))
    #expect(await offline.key(kid, now: Date()) != nil)
    #expect(await offline.lastProblem != nil)
  }

  @Test func anUnknownKeyIdFetchesAgainButAtMostOnceAMinute() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let keys = GoogleSigningKeys(
      .fetched(url: world.standIn.certificatesURL!, transport: world.transport, cacheFile: nil))
    let start = Date()
    _ = await keys.key("other", now: start)
    _ = await keys.key("other", now: start.addingTimeInterval(30))
    _ = await keys.key("other", now: start.addingTimeInterval(61))
    #expect(world.standIn.calls.filter { $0.endpoint == .certificates }.count == 2)
  }

  @Test func aKeysFileIsReadAgainWhenItChanges() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reckon-google-keys-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let first = try LocalGoogleIdentity(keyId: "first")
    let second = try LocalGoogleIdentity(keyId: "second")
    try first.keySet().json().write(to: URL(fileURLWithPath: path))
    let keys = GoogleSigningKeys(.file(path))
    #expect(await keys.key("first", now: Date()) != nil)
    #expect(await keys.key("second", now: Date()) == nil)
    try second.keySet().json().write(to: URL(fileURLWithPath: path))
    #expect(await keys.key("second", now: Date()) != nil)
  }

  @Test(arguments: [
    ("max-age=19800, must-revalidate", 19_800.0), ("public, max-age = 60", 60), ("no-store", nil),
  ])
  func theCacheLifetimeIsGooglesMaxAge(header: String, seconds: TimeInterval?) {
    #expect(GoogleSigningKeys.maxAge(header) == seconds)
  }
}
