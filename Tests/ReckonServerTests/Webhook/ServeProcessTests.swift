import Foundation
import ReckonAppStore
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `reckon serve` once, end to end: a signed notification in, the reply at the stand-in,
/// then SIGTERM and a clean exit.
@Suite(.serialized) struct ServeProcessTests {
  @Test func reckonServeAnswersSendsAndStopsCleanlyOnSIGTERM() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(standInURL, authority)
    let log = folder.appendingPathComponent("serve.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = Process()
    process.executableURL = binary
    process.arguments = ["serve", "--config", folder.appendingPathComponent("reckon.json").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()

    var listening: String?
    _ = await ServerFixture.eventually(within: 20) {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      listening = text.split(separator: "\n").first { $0.contains(#""event":"listening""#) }
        .map(String.init)
      return listening != nil
    }
    let line = try #require(listening, "reckon serve did not start")
    let url = try #require(
      (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["url"])
    var request = URLRequest(url: URL(string: url + "/apple/notifications")!)
    request.httpMethod = "POST"
    request.httpBody = try ServerFixture.notification().body(signedBy: authority)
    let (_, response) = try await URLSession.shared.data(for: request)
    let sent = await ServerFixture.eventually { standIn.requests.count == 1 }

    kill(process.processIdentifier, SIGTERM)
    await CrashRecoveryTests.waitForExit(process)
    await ServerFixture.offPool { standIn.shutdown() }
    let logged = try String(contentsOf: log, encoding: .utf8)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(sent)
    #expect(standIn.requests.first?.status == 202)
    #expect(process.terminationStatus == 0)
    #expect(logged.contains(#""event":"stopped""#))
    #expect(!logged.contains("PRIVATE KEY"))
  }

  static func workspace(_ standIn: URL, _ authority: LocalCertificateAuthority) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reckon-serve-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = folder.appendingPathComponent("key.p8")
    try Data(contentsOf: URL(fileURLWithPath: TestKey.path)).write(to: key)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
    try authority.write(to: folder.appendingPathComponent("ca").path)
    try ServerFixture.policy.write(
      to: folder.appendingPathComponent("p.policy"), atomically: true, encoding: .utf8)
    let facts = """
      {"byTransactionId": {"2000000812345678": {"customer.consented": true, "delivery.status": "DELIVERED",
        "product.sample_offered": false, "usage.consumed": "10%"}}}
      """
    try facts.write(
      to: folder.appendingPathComponent("facts.json"), atomically: true, encoding: .utf8)
    let config = """
      {"apps": [{"bundleId": "\(TestKey.bundleId)", "environment": "Sandbox", "policy": "p.policy"}],
       "factSources": [{"name": "notes", "type": "json", "path": "facts.json"}],
       "state": {"path": "state.sqlite"},
       "appStore": {"issuerId": "\(TestKey.issuerId)", "keyId": "\(TestKey.keyId)", "privateKeyPath": "key.p8",
                    "baseURL": "\(standIn.absoluteString)"},
       "sender": {"sandboxRequestsPerSecond": 100},
       "server": {"listen": "127.0.0.1:0"},
       "trust": {"roots": ["ca/root.pem"]}}
      """
    try config.write(
      to: folder.appendingPathComponent("reckon.json"), atomically: true, encoding: .utf8)
    return folder
  }
}
