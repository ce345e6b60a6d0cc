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
    let folder = try ServeChild.workspace(standInURL, authority, name: "serve")
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
}
