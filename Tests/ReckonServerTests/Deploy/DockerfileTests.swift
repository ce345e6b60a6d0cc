import Foundation
import ReckonTestSupport
import Testing

/// `examples/deploy/Dockerfile`: built only where a Docker daemon answers (none does on the
/// machines this project builds on, where the test says so and is skipped); its run stage is
/// checked everywhere against Package.swift and `reckon serve`'s stop.
struct DockerfileTests {
  static let docker = "/usr/bin/docker"

  /// Whether a daemon answers `docker info`: a client alone cannot build.
  static let daemonAnswers: Bool = {
    for candidate in [docker, "/usr/local/bin/docker"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: candidate)
      process.arguments = ["info", "--format", "{{.ServerVersion}}"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { continue }
      DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
        if process.isRunning { process.send(SIGKILL) }
      }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
    return false
  }()

  @Test(
    .enabled(
      if: daemonAnswers,
      "no Docker daemon answers here (the docker client alone cannot build); run docker build -f examples/deploy/Dockerfile . where one does"
    ),
    .timeLimit(.minutes(60)))
  func theImageBuilds() async throws {
    let built = try await ProcessOutput.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["docker", "build", "-f", "examples/deploy/Dockerfile", "-t", "reckon:test", "."],
      in: DeployExample.root, limit: 3_600)
    #expect(built.status == 0, "\(built.output)\(built.error)")
  }

  /// The run stage installs the runtime package of every system library Package.swift links
  /// (the -dev packages of the build stage, without -dev), runs as a user of its own, and stops
  /// on SIGTERM within Docker's 10 s.
  @Test func theRunStageHasEachLinkedLibraryAndStopsWithinDockersGrace() throws {
    let dockerfile = try DeployExample.text("Dockerfile")
    let runStage = try #require(
      dockerfile.components(separatedBy: "FROM debian:bookworm-slim").last)
    for library in [
      "libsqlite3-0", "libssl3", "libcurl4", "libpq5", "zlib1g", "libzstd1", "ca-certificates",
    ] {
      #expect(runStage.contains(library), "\(library)")
    }
    let manifest = try String(
      contentsOf: DeployExample.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    for development in [
      "libsqlite3-dev", "libssl-dev", "libcurl4-openssl-dev", "libpq-dev", "zlib1g-dev",
      "libzstd-dev",
    ] {
      #expect(manifest.contains(development), "\(development)")
      #expect(dockerfile.contains(development), "the build stage needs \(development)")
    }
    #expect(dockerfile.contains("--static-swift-stdlib"))
    #expect(runStage.contains("USER 10001"))
    #expect(runStage.contains("STOPSIGNAL SIGTERM"))
    #expect(runStage.contains("HEALTHCHECK") && runStage.contains("/healthz"))
  }
}
