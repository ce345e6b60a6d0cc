import Foundation
import ReckonTestSupport
import Testing

/// `examples/deploy/reckon.service` passes `systemd-analyze verify` (with ExecStart pointed at
/// the reckon this run built, since verify checks the binary exists), stops within a second of
/// serve's default grace, and `systemd-analyze security` rates its exposure low.
struct SystemdUnitTests {
  static let analyze = "/usr/bin/systemd-analyze"

  @Test(
    .enabled(
      if: DeployExample.installed(analyze),
      "systemd-analyze is not installed here (Debian's systemd package has it)"))
  func theUnitVerifiesAndIsHardened() async throws {
    let unit = try Self.unitForThisBuild()
    let verified = try await ProcessOutput.run(
      URL(fileURLWithPath: Self.analyze), ["verify", unit.path], limit: 30)
    #expect(verified.status == 0, "\(verified.output)\(verified.error)")
    #expect(verified.error.isEmpty, "systemd-analyze verify warned: \(verified.error)")
    let security = try await ProcessOutput.run(
      URL(fileURLWithPath: Self.analyze), ["security", "--offline=true", unit.path], limit: 30)
    let exposure = security.output.split(separator: "\n").first {
      $0.contains("Overall exposure level")
    }
    let score = exposure.flatMap { line in
      line.split(separator: " ").compactMap { Double($0) }.first
    }
    #expect(score.map { $0 <= 2.0 } == true, "\(security.output)\(security.error)")
  }

  /// Whatever the machine has: the settings that must agree with `reckon serve`.
  @Test func theStopTimeoutCoversServesGraceAndTheStateIsTheOnlyWritablePlace() throws {
    let unit = try DeployExample.text("reckon.service")
    #expect(unit.contains("KillSignal=SIGTERM"))
    // server.shutdownGraceSeconds defaults to 9: systemd's SIGKILL only after it.
    #expect(unit.contains("TimeoutStopSec=10s"))
    for setting in [
      "ProtectSystem=strict", "StateDirectory=reckon", "ReadWritePaths=/var/lib/reckon",
      "User=reckon", "NoNewPrivileges=yes", "PrivateTmp=yes",
      "ProtectHome=yes", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
      "SystemCallFilter=@system-service", "CapabilityBoundingSet=\n", "Restart=on-failure",
      "MemoryDenyWriteExecute=yes",
    ] {
      #expect(unit.contains(setting), "\(setting)")
    }
  }

  /// The unit with ExecStart naming this build's reckon, in a scratch folder.
  static func unitForThisBuild() throws -> URL {
    let unit = try DeployExample.substituting(
      "ExecStart=/usr/local/bin/reckon ",
      "ExecStart=\(try CrashRecoveryTests.reckonBinary().path) ",
      in: try DeployExample.text("reckon.service"))
    let file = try DeployExample.folder("systemd").appendingPathComponent("reckon.service")
    try Data(unit.utf8).write(to: file)
    return file
  }
}
