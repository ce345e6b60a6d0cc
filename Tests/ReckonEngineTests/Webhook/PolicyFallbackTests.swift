import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// A bad policy on disk at restart is not an outage: the version that last went live is kept
/// in the state, a start whose file does not check decides with it, and says so loudly until
/// the file is fixed.
struct PolicyFallbackTests {
  static let app = AppStoreApp(bundleId: "com.example.fallback", environment: .sandbox)
  static let decline = "policy \"p\"\nversion 1\notherwise refund DECLINE\n"
  static let grant = "policy \"p\"\nversion 2\notherwise refund GRANT_FULL\n"
  static let broken = "policy \"p\"\nrule \"x\" when nonsense.fact then refund MAYBE\n"

  @Test func aFileThatDoesNotCheckAtStartFallsBackToTheVersionThatLastWentLive() throws {
    let path = TestScratch.folder.appendingPathComponent("fallback-\(UUID()).policy").path
    let store = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    try Self.decline.write(toFile: path, atomically: true, encoding: .utf8)
    let first = try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    #expect(first.live().map(\.name) == ["policy_live"])
    let kept = try #require(try store.lastLivePolicy(app: Self.app.key))
    #expect(kept.text == Self.decline)
    #expect(kept.source == path)

    try Self.broken.write(toFile: path, atomically: true, encoding: .utf8)
    let restarted = try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    #expect(restarted.entry(for: Self.app)?.text == Self.decline)
    let events = restarted.live()
    #expect(events.map(\.name) == ["policy_fallback"])
    #expect(events.first?.level == "error")
    #expect(events.first?.description.contains("nonsense.fact") == true)
    #expect(events.first?.fields["wentLiveAt"] == .string(kept.wentLiveAt.formatted(.iso8601)))
    #expect(restarted.refusedFiles().map(\.path) == [path])
    #expect(restarted.filesRefused() == [path: true])
    // The file unchanged is not refused again at every poll.
    #expect(restarted.reload().isEmpty)
    // The kept version is not replaced by the one it stands in for.
    #expect(try store.lastLivePolicy(app: Self.app.key)?.text == Self.decline)

    try Self.grant.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(restarted.reload().map(\.name) == ["policy_applied"])
    #expect(restarted.entry(for: Self.app)?.text == Self.grant)
    #expect(restarted.refusedFiles().isEmpty)
    #expect(restarted.live().map(\.name) == ["policy_live"])
    #expect(try store.lastLivePolicy(app: Self.app.key)?.text == Self.grant)
  }

  @Test func withNoVersionKeptAFileThatDoesNotCheckFailsTheStart() throws {
    let path = TestScratch.folder.appendingPathComponent("fallback-\(UUID()).policy").path
    let store = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    try Self.broken.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: PolicyBook.Refusal.self) {
      try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    }
  }

  /// A missing file is a deployment mistake, not an edit: the start fails on it even with a
  /// version kept, from parts as from reckon.json.
  @Test func aFileThatCannotBeReadFailsTheStartEvenWithAVersionKept() throws {
    let path = TestScratch.folder.appendingPathComponent("fallback-\(UUID()).policy").path
    let store = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    try Self.decline.write(toFile: path, atomically: true, encoding: .utf8)
    _ = try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    try FileManager.default.removeItem(atPath: path)
    #expect {
      try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    } throws: { error in
      guard let refusal = error as? PolicyBook.Refusal else { return false }
      return refusal.cannotBeRead && refusal.description == "\(path): cannot read: no such file"
    }
  }

  /// Instances sharing a state keep one version per app, the last any of them put live: one
  /// configured with another file must not fall back on that file's policy.
  @Test func aVersionThatWentLiveFromAnotherFileIsNotFallenBackOn() throws {
    let path = TestScratch.folder.appendingPathComponent("fallback-\(UUID()).policy").path
    let other = TestScratch.folder.appendingPathComponent("other-\(UUID()).policy").path
    let store = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    try Self.decline.write(toFile: path, atomically: true, encoding: .utf8)
    _ = try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    try Self.grant.write(toFile: other, atomically: true, encoding: .utf8)
    _ = try PolicyBook([Self.app: .file(other)], schema: .standard, archive: store)
    #expect(try store.lastLivePolicy(app: Self.app.key)?.source == other)
    try Self.broken.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: PolicyBook.Refusal.self) {
      try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    }
  }

  @Test func anotherAppsKeptVersionIsNotFallenBackOn() throws {
    let path = TestScratch.folder.appendingPathComponent("fallback-\(UUID()).policy").path
    let store = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    try Self.decline.write(toFile: path, atomically: true, encoding: .utf8)
    _ = try PolicyBook([Self.app: .file(path)], schema: .standard, archive: store)
    try Self.broken.write(toFile: path, atomically: true, encoding: .utf8)
    let production = AppStoreApp(bundleId: Self.app.bundleId, environment: .production)
    #expect(throws: PolicyBook.Refusal.self) {
      try PolicyBook([production: .file(path)], schema: .standard, archive: store)
    }
  }
}
