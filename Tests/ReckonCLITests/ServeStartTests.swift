import Foundation
import ReckonHTTP
import ReckonTestSupport
import Testing

/// A start `reckon serve` refuses is one plain line and exit status 1: no JSON line of a
/// service that never listened comes before it.
struct ServeStartTests {
  @Test func anAddressInUseIsOnePlainLine() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-serve-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // Another listener holds the port: `reckon serve` must refuse it, not share it.
    let occupied = HTTPServer(configuration: .init()) { _ in .text(200, "taken") }
    let port = try occupied.start()
    defer { occupied.shutdown(timeout: 1) }
    let configuration = """
      {
        "apps": [{ "bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production", "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy" }],
        "state": { "path": "\(folder)/reckon-state.sqlite" }
      }
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    let run = try await ReckonBinary.run([
      "serve", "--config", folder + "/reckon.json", "--listen", "127.0.0.1:\(port)",
    ])
    #expect(run.status == 1)
    let lines = run.standardError.split(separator: "\n")
    #expect(lines.count == 1, "\(run.standardError)")
    #expect(
      lines.first?.hasPrefix("reckon serve: --listen: cannot listen on 127.0.0.1:\(port)") == true,
      "\(run.standardError)")
  }

  /// Each connection takes a thread: a maxConnections the user's thread limit cannot give one
  /// each is refused at start naming the key, not found out by a flood.
  @Test func moreConnectionsThanTheThreadLimitAllowsIsRefusedAtStart() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-serve-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let configuration = """
      {
        "apps": [{ "bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production", "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy" }],
        "state": { "path": "\(folder)/reckon-state.sqlite" },
        "server": { "listen": "127.0.0.1:0", "maxConnections": 256 }
      }
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    let run = try await ProcessOutput.run(
      URL(fileURLWithPath: "/usr/bin/prlimit"),
      [
        "--nproc=200:200", try ReckonBinary.location().path, "serve", "--config",
        folder + "/reckon.json",
      ], limit: 60)
    #expect(run.status == 1)
    #expect(
      run.error.contains("server.maxConnections: 256 connections take a thread each"),
      "\(run.error)")
    #expect(run.error.contains("lower maxConnections to at most 136"), "\(run.error)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/reckon-state.sqlite"))
  }
}
