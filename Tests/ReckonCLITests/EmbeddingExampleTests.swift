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
    let arguments =
      [
        "swiftc", "-typecheck", "-parse-as-library", "\(root)/examples/embedding/minimal.swift",
        "-I", modules,
      ]
      + ["CSQLite", "COpenSSL", "CCurl", "CZlib", "CZstd"].flatMap {
        ["-Xcc", "-fmodule-map-file=\(root)/Sources/\($0)/module.modulemap"]
      }
    let (status, output, error) = try await ProcessOutput.run(
      URL(fileURLWithPath: "/usr/bin/env"), arguments, limit: 120)
    let text = output + error
    #expect(status == 0, "\(text)")
  }
}
