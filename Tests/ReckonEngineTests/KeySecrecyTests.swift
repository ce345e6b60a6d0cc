import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

@Suite struct KeySecrecyTests {
  /// The base64 lines of the PEM, which is what a leak would contain.
  func secretLines() throws -> [String] {
    try TestKey.pemText().split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
  }

  @Test func theKeyNeverAppearsInItsDescriptionOrErrors() throws {
    let key = try TestKey.key()
    let texts = [
      key.description, "\(key)", String(reflecting: key),
      SigningError.notP256(path: TestKey.path).description,
    ]
    for text in texts {
      for line in try secretLines() { #expect(!text.contains(line)) }
    }
  }

  @Test func theKeyNeverReachesTheStateDatabase() async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let store = try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent(
        "secrecy-\(UUID()).sqlite"
      ).path, rules: .appStore)
    let events = SenderEventLog()
    let sender = OutboxSender(
      store: store, sender: try TestKey.client(url), configuration: try SenderSettings.fast(),
      consentCheck: nil, events: events.append)
    let entry = try OutboxFixture.enqueue(in: store, at: Date())
    standIn.enqueue(.unauthorized)
    _ = try await sender.drainDue()
    #expect(try store.entry(id: entry).state.name == "pending")
    let bytes =
      try Data(contentsOf: URL(fileURLWithPath: store.path))
      + ((try? Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))) ?? Data())
    for line in try secretLines() {
      #expect(bytes.range(of: Data(line.utf8)) == nil)
      #expect(!events.lines.joined().contains(line))
    }
  }

  @Test func aKeyFileReadableByOthersGetsAWarning() throws {
    let copy = TestScratch.folder.appendingPathComponent("key-\(UUID()).p8")
      .path
    try Data(contentsOf: URL(fileURLWithPath: TestKey.path)).write(to: URL(fileURLWithPath: copy))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
    #expect(PrivateKey.permissionWarning(path: copy)?.contains("readable by others") == true)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: copy)
    #expect(PrivateKey.permissionWarning(path: copy)?.contains("its group") == true)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy)
    #expect(PrivateKey.permissionWarning(path: copy) == nil)
  }
}
