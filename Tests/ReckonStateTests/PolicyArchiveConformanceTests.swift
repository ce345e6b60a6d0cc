import Foundation
import ReckonAppStore
import ReckonState
import Testing

/// What every state backend must do with the last policy that went live for each app: keep it
/// exactly, one per app, the latest replacing the one before, through a prune.
@Suite struct PolicyArchiveConformanceTests {
  typealias Fixture = StateRecordsFixture

  /// A policy text with non-ASCII characters, a tab and newlines, as a file's text can be.
  static let text = """
    # Rückerstattung — « politique » for 日本
    rule "grant in full":\twhen customer.override is "ja"
      respond with refund_preference = "grant"

    """

  /// `text` (or `text` as given) gone live for `app` at `at`.
  static func policy(
    _ app: AppKey = Fixture.appKey, text: String = Self.text, source: String = "policy.reckon",
    at: Date = Fixture.start.addingTimeInterval(0.25)
  ) -> ArchivedPolicy {
    ArchivedPolicy(
      app: app, source: source, text: text, textSHA256: SHA256Digest.hex(Data(text.utf8)),
      wentLiveAt: at)
  }

  @Test(arguments: StateBackend.all)
  func noPolicyIsKeptForAnAppUntilOneGoesLive(_ backend: StateBackend) throws {
    let store = try backend.make()
    #expect(try store.lastLivePolicy(app: Fixture.appKey) == nil)
    try store.archiveLivePolicy(
      Self.policy(AppKey(bundleId: "com.example.other", environment: "Production")))
    #expect(try store.lastLivePolicy(app: Fixture.appKey) == nil)
  }

  @Test(arguments: StateBackend.all)
  func theKeptPolicyReadsBackExactly(_ backend: StateBackend) throws {
    let store = try backend.make()
    let policy = Self.policy(source: "/etc/reckon/policies/Ärger.reckon")
    try store.archiveLivePolicy(policy)
    let kept = try #require(try store.lastLivePolicy(app: Fixture.appKey))
    #expect(kept == policy)
    #expect(Data(kept.text.utf8) == Data(Self.text.utf8))
    #expect(Data(kept.source.utf8) == Data(policy.source.utf8))
    #expect(kept.textSHA256 == SHA256Digest.hex(Data(kept.text.utf8)))
    #expect(kept.wentLiveAt == Fixture.start.addingTimeInterval(0.25))
  }

  @Test(arguments: StateBackend.all)
  func aLaterPolicyReplacesTheEarlierForItsAppAndAppsAreKeptApart(_ backend: StateBackend)
    throws
  {
    let store = try backend.make()
    let app = Fixture.appKey
    let sandbox = AppKey(bundleId: app.bundleId, environment: "Sandbox")
    let other = AppKey(bundleId: "com.example.other", environment: app.environment)
    let first = Self.policy(app, text: "rule \"first\": respond\n")
    let inSandbox = Self.policy(sandbox, text: "rule \"sandbox\": respond\n", source: "sandbox")
    let ofOther = Self.policy(other, text: "rule \"other\": respond\n", source: "other")
    try store.archiveLivePolicy(first)
    try store.archiveLivePolicy(inSandbox)
    try store.archiveLivePolicy(ofOther)
    let second = Self.policy(
      app, text: "rule \"second\": respond\n", source: "policy-2.reckon",
      at: Fixture.start.addingTimeInterval(3_600))
    try store.archiveLivePolicy(second)
    #expect(try store.lastLivePolicy(app: app) == second)
    #expect(try store.lastLivePolicy(app: sandbox) == inSandbox)
    #expect(try store.lastLivePolicy(app: other) == ofOther)
  }

  @Test(arguments: StateBackend.all)
  func pruningLeavesTheKeptPolicy(_ backend: StateBackend) throws {
    let store = try backend.make()
    let policy = Self.policy()
    try store.archiveLivePolicy(policy)
    let request = try store.recordNotification(Fixture.notification()).requestId
    _ = try store.recordDecision(Fixture.decision(), requestId: request, enqueue: nil)
    let removed = try store.prune(
      before: Fixture.start.addingTimeInterval(20 * 86_400),
      now: Fixture.start.addingTimeInterval(40 * 86_400))
    #expect(removed.notifications == 1)
    #expect(try store.lastLivePolicy(app: Fixture.appKey) == policy)
  }
}
