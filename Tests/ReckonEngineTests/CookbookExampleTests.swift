import Foundation
import ReckonFacts
import ReckonPolicy
import Testing

/// Every policy the cookbook shows checks without an error against the standard facts: a product
/// owner copies them as they are.
struct CookbookExampleTests {
  static func policyBlocks() throws -> [String] {
    let text = try String(contentsOfFile: Repository.path("docs/cookbook.md"), encoding: .utf8)
    let parts = text.components(separatedBy: "```")
    // Odd parts are inside fences; a fence with a language tag (json, sh) is not a policy.
    return stride(from: 1, to: parts.count, by: 2).map { parts[$0] }.filter {
      let firstWord = $0.split(whereSeparator: \.isWhitespace).first ?? ""
      // Tests files (`test`, `given`) are shown too; they are not policies.
      return $0.hasPrefix("\n") && ($0.contains("rule \"") || $0.contains("otherwise"))
        && firstWord != "test" && firstWord != "given"
    }
  }

  @Test func everyPolicyInTheCookbookChecksWithoutErrors() throws {
    let blocks = try Self.policyBlocks()
    #expect(blocks.count >= 8)
    for block in blocks {
      let loaded = PolicyLoader.load(
        SourceFile(path: "cookbook.policy", text: block), schema: FactSchema.standard.policySchema)
      #expect(
        !loaded.hasErrors,
        "\(block)\n\(loaded.renderedDiagnostics())"
      )
    }
  }
}
