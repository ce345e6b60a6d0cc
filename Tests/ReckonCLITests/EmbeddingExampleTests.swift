import Foundation
import ReckonTestSupport
import Testing

/// `examples/embedding/minimal.swift` is not a target of the package, so nothing else would
/// notice it drifting from the public API: it is type-checked here against the modules this
/// build made, as an embedder's target would import them.
struct EmbeddingExampleTests {
  @Test func theMinimalEmbeddingExampleTypeChecksAgainstThePublicAPI() async throws {
    let root = ReckonBinary.packageRoot.path
    let modules = try ReckonBinary.location().deletingLastPathComponent()
      .appendingPathComponent("Modules").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "swiftc", "-typecheck", "-parse-as-library", "\(root)/examples/embedding/minimal.swift",
        "-I", modules,
      ]
      + ["CSQLite", "COpenSSL", "CCurl"].flatMap {
        ["-Xcc", "-fmodule-map-file=\(root)/Sources/\($0)/module.modulemap"]
      }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
      if process.isRunning { process.terminate() }
    }
    let (status, text) = await ProcessOutput.readToEnd(process, output)
    #expect(status == 0, "\(text)")
  }
}
