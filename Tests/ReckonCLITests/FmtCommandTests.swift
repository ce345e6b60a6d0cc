import Foundation
import ReckonTestSupport
import Testing

/// `reckon fmt` rewrites the file a user means, as they left it apart from its layout, and its
/// summary counts only the files it could read.
struct FmtCommandTests {
  static let messy = ReckonBinary.packageRoot.appendingPathComponent(
    "Tests/ReckonCLITests/Fixtures/messy.policy")

  /// A fresh folder holding a copy of messy.policy as `name`.
  static func messyCopy(named name: String = "messy.policy") throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent("reckon-fmt-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: messy, to: file)
    return file
  }

  static func permissions(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }

  @Test func aSymbolicLinkIsFollowedAndKept() async throws {
    let real = try Self.messyCopy(named: "real.policy")
    let link = real.deletingLastPathComponent().appendingPathComponent("link.policy")
    try FileManager.default.createSymbolicLink(
      atPath: link.path, withDestinationPath: "real.policy")
    let run = try await ReckonBinary.run(["fmt", link.path])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.policy")
    let formatted = try await ReckonBinary.run(["fmt", "--check", real.path])
    #expect(formatted.status == 0, "\(formatted.standardOutput)")
  }

  @Test func theFileKeepsItsPermissions() async throws {
    let file = try Self.messyCopy()
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
    let run = try await ReckonBinary.run(["fmt", file.path])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "reformatted \(file.path)\n")
    #expect(try Self.permissions(file.path) == 0o640)
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: file.deletingLastPathComponent().path)
    #expect(leftovers == ["messy.policy"])
  }

  @Test func aFileThatDoesNotParseIsNotCountedAsFormatted() async throws {
    let folder = try Self.messyCopy().deletingLastPathComponent()
    let broken = folder.appendingPathComponent("broken.policy")
    try Data("rule \"half\"\n  when\n".utf8).write(to: broken)
    let alone = try await ReckonBinary.run(["fmt", broken.path])
    #expect(alone.status == 1)
    #expect(alone.standardOutput == "1 file not formatted: it has errors\n")
    #expect(alone.standardError.contains("\(broken.path):"), "\(alone.standardError)")

    let formatted = folder.appendingPathComponent("plain.policy")
    try Data("otherwise share data only\n".utf8).write(to: formatted)
    let both = try await ReckonBinary.run(["fmt", formatted.path, broken.path])
    #expect(both.status == 1)
    #expect(
      both.standardOutput == "1 file already formatted\n1 file not formatted: it has errors\n")
  }

  @Test func checkAndStdoutTogetherAreRefused() async throws {
    let run = try await ReckonBinary.run(["fmt", "--check", "--stdout", Self.messy.path])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasPrefix("reckon fmt: --check and --stdout cannot be used together"),
      "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }
}
