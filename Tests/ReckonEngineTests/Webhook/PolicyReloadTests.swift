import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Policies change while the service runs: a version that checks is applied, one that does not
/// is refused with its diagnostics and the previous one keeps deciding.
struct PolicyReloadTests {
  static let grant = WebhookFixture.policy.replacingOccurrences(
    of: "otherwise refund DECLINE", with: "otherwise refund GRANT_FULL")

  @Test func aValidChangeIsAppliedAndAnInvalidOneRefused() async throws {
    let path = TestScratch.folder.appendingPathComponent(
      "reload-\(UUID()).policy"
    ).path
    try WebhookFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let fixture = try WebhookFixture(policy: .file(path))
    #expect(fixture.service.reloadPolicies().isEmpty)

    try Self.grant.write(toFile: path, atomically: true, encoding: .utf8)
    let applied = fixture.service.reloadPolicies(force: true)
    #expect(applied.map(\.name) == ["policy_applied"])
    var first = SimulatedNotification()
    first.transactionId = "1"
    #expect(
      WebhookFixture.fields(await fixture.service.answer(body: try fixture.body(first)))["action"]
        == "respond")
    #expect(
      try String(decoding: fixture.store.entries().last!.body, as: UTF8.self).contains("GRANT_FULL")
    )

    try "policy \"broken\"\nrule \"x\" when nonsense.fact then refund MAYBE\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let refused = fixture.service.reloadPolicies(force: true)
    #expect(refused.map(\.name) == ["policy_refused"])
    if case .policyRefused(_, let diagnostics) = refused.first {
      #expect(diagnostics.contains("nonsense.fact"))
    }
    var second = SimulatedNotification()
    second.transactionId = "2"
    _ = await fixture.service.answer(body: try fixture.body(second))
    #expect(
      try String(decoding: fixture.store.entries().last!.body, as: UTF8.self).contains("GRANT_FULL")
    )
    #expect(fixture.events.all.contains { $0.name == "policy_refused" })
  }

  @Test func aPolicyReplacedByAFIFOIsRefusedAtOnceAndThePreviousOneKeepsDeciding() async throws {
    let path = TestScratch.folder.appendingPathComponent("fifo-\(UUID()).policy").path
    try WebhookFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let fixture = try WebhookFixture(policy: .file(path))
    unlink(path)
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let started = Date()
    let refused = fixture.service.reloadPolicies()
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(refused.map(\.name) == ["policy_refused"])
    if case .policyRefused(_, let diagnostics) = refused.first {
      #expect(diagnostics.contains("is a FIFO (named pipe), not a regular file"), "\(diagnostics)")
    }
    let answer = await fixture.service.answer(body: try fixture.body(SimulatedNotification()))
    #expect(WebhookFixture.fields(answer)["action"] == "respond")
  }

  @Test func aPolicyThatDoesNotCheckStopsTheServiceFromStarting() throws {
    #expect(throws: ReckonServiceError.self) {
      try WebhookFixture(policy: .text(name: "bad.policy", "rule \"x\" when then"))
    }
  }

  @Test func startingSaysWhichPolicyVersionDecidesForEachApp() throws {
    let fixture = try WebhookFixture()
    let live = fixture.events.all.filter { $0.name == "policy_live" }
    #expect(live.count == 1, "\(fixture.events.all)")
    let sha = SHA256Digest.hex(Data(WebhookFixture.policy.utf8))
    #expect(live.first?.fields["sha256"] == .string(sha))
    #expect(live.first?.fields["version"] == .string("1"))
    #expect(
      live.first?.description.hasPrefix(
        "policy webhook-test.policy (version 1, sha256 \(sha.prefix(12))) decides for com.example.coins"
      )
        == true, "\(live)")
  }

  @Test func aPolicyThatGoesLiveWithWarningsLogsThemAsAWarning() throws {
    // The same condition as "asked again", so this rule is shadowed: a warning, not an error.
    let warned = WebhookFixture.policy.replacingOccurrences(
      of: "otherwise refund DECLINE",
      with:
        "rule \"again\"\n  when history.earlier_requests >= 1\n  then refund DECLINE\n\notherwise refund DECLINE"
    )
    let fixture = try WebhookFixture(policy: .text(name: "warned.policy", warned))
    let live = try #require(fixture.events.all.first { $0.name == "policy_live" })
    #expect(live.level == "warning")
    #expect(live.description.contains("reckon check gives it"), "\(live)")
    #expect(live.description.contains("warned.policy:"), "\(live)")
  }

  @Test func restoringTheLiveVersionAfterARefusedEditSaysItIsLiveAgain() throws {
    let path = TestScratch.folder.appendingPathComponent("restore-\(UUID()).policy").path
    try WebhookFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let fixture = try WebhookFixture(policy: .file(path))
    try "rule \"x\" when then".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(fixture.service.reloadPolicies(force: true).map(\.name) == ["policy_refused"])
    try WebhookFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let restored = fixture.service.reloadPolicies(force: true)
    #expect(restored.map(\.name) == ["policy_applied"], "\(restored)")
    #expect(fixture.service.reloadPolicies(force: true).isEmpty)
  }

  /// A Kubernetes ConfigMap mounts a policy as `name -> ..data/name`, `..data -> version
  /// folder`, and an update swaps `..data`: the link the configuration names never changes, so
  /// the poll (no `force`) must look through it.
  @Test func aPolicyBehindASymbolicLinkIsReloadedWhenTheLinkIsSwapped() throws {
    let folder = TestScratch.folder.appendingPathComponent("configmap-\(UUID())")
    let files = FileManager.default
    for version in ["v1", "v2"] {
      try files.createDirectory(
        at: folder.appendingPathComponent(version), withIntermediateDirectories: true)
    }
    try WebhookFixture.policy.write(
      to: folder.appendingPathComponent("v1/p.policy"), atomically: true, encoding: .utf8)
    try Self.grant.write(
      to: folder.appendingPathComponent("v2/p.policy"), atomically: true, encoding: .utf8)
    // Both versions written in the same instant would have the same modification time.
    let sameTime = Date(timeIntervalSince1970: 1_790_000_000)
    for version in ["v1", "v2"] {
      try files.setAttributes(
        [.modificationDate: sameTime],
        ofItemAtPath: folder.appendingPathComponent("\(version)/p.policy").path)
    }
    try files.createSymbolicLink(
      atPath: folder.appendingPathComponent("..data").path, withDestinationPath: "v1")
    try files.createSymbolicLink(
      atPath: folder.appendingPathComponent("p.policy").path, withDestinationPath: "..data/p.policy"
    )
    let fixture = try WebhookFixture(policy: .file(folder.appendingPathComponent("p.policy").path))
    #expect(fixture.service.reloadPolicies().isEmpty)

    // As kubelet does it: a new link beside the old, renamed over it.
    let swapped = folder.appendingPathComponent("..data_tmp").path
    try files.createSymbolicLink(atPath: swapped, withDestinationPath: "v2")
    #expect(rename(swapped, folder.appendingPathComponent("..data").path) == 0)
    let applied = fixture.service.reloadPolicies()
    #expect(applied.map(\.name) == ["policy_applied"], "\(applied)")
    #expect(fixture.service.reloadPolicies().isEmpty)
  }

  /// A policy file removed while the service runs is said at the next poll, once (a restart
  /// would fail on it), and the version in memory keeps deciding; putting it back is said too.
  @Test func aRemovedPolicyFileIsRefusedOnceAndItsReturnApplied() throws {
    let path = TestScratch.folder.appendingPathComponent("removed-\(UUID()).policy").path
    try WebhookFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let fixture = try WebhookFixture(policy: .file(path))
    try FileManager.default.removeItem(atPath: path)
    let refused = fixture.service.reloadPolicies()
    #expect(refused.map(\.name) == ["policy_refused"], "\(refused)")
    if case .policyRefused(_, let diagnostics) = refused.first {
      #expect(diagnostics.contains("cannot read"), "\(diagnostics)")
    }
    #expect(fixture.service.reloadPolicies().isEmpty)
    try WebhookFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(fixture.service.reloadPolicies().map(\.name) == ["policy_applied"])
  }
}
