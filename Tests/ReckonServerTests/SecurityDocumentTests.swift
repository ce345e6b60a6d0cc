import Foundation
import Testing

/// docs/security.md names the test behind each claim as `Suite.testFunction`; every name must
/// still be a test, so a renamed or deleted test shows up here instead of leaving a claim bare.
@Suite struct SecurityDocumentTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Every `` `Suite.test` `` reference in the document, in order of first appearance.
  static func references() throws -> [(suite: String, test: String)] {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/security.md"), encoding: .utf8)
    let pattern = try NSRegularExpression(
      pattern: "`([A-Z][A-Za-z0-9]*Tests)\\.([a-z][A-Za-z0-9]*)`")
    var seen: Set<String> = []
    var found: [(String, String)] = []
    for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
      let suite = String(text[Range(match.range(at: 1), in: text)!])
      let test = String(text[Range(match.range(at: 2), in: text)!])
      if seen.insert("\(suite).\(test)").inserted { found.append((suite, test)) }
    }
    return found
  }

  /// The Swift sources under Tests/, by path.
  static func testSources() throws -> [String: String] {
    let tests = packageRoot.appendingPathComponent("Tests")
    var sources: [String: String] = [:]
    let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      sources[file.path] = try String(contentsOf: file, encoding: .utf8)
    }
    return sources
  }

  @Test func everyTestNamedInTheSecurityReviewExists() throws {
    let references = try Self.references()
    #expect(references.count >= 30, "docs/security.md names only \(references.count) tests")
    // One pass over the sources, not one per reference: run on the pool, a search of every file
    // for each of the document's names held a thread from other tests for seconds.
    let declarations = try NSRegularExpression(
      pattern: "(?:struct|extension) ([A-Z][A-Za-z0-9]*Tests) ")
    var sourcesBySuite: [String: [String]] = [:]
    for source in try Self.testSources().values {
      let range = NSRange(source.startIndex..., in: source)
      var suites: Set<String> = []
      for match in declarations.matches(in: source, range: range) {
        suites.insert(String(source[Range(match.range(at: 1), in: source)!]))
      }
      for suite in suites { sourcesBySuite[suite, default: []].append(source) }
    }
    for (suite, test) in references {
      let declaring = sourcesBySuite[suite] ?? []
      #expect(!declaring.isEmpty, "docs/security.md names suite \(suite), which does not exist")
      let hasTest = declaring.contains { Self.declaresTest(test, in: $0) }
      #expect(hasTest, "docs/security.md names \(suite).\(test), which is not a test in \(suite)")
    }
  }

  /// Whether `source` has `func name(` marked `@Test` (the attribute after the previous `func`).
  static func declaresTest(_ name: String, in source: String) -> Bool {
    guard let function = source.range(of: "func \(name)(") else { return false }
    let before = source[..<function.lowerBound]
    guard let attribute = before.range(of: "@Test", options: .backwards) else { return false }
    guard let previous = before.range(of: "func ", options: .backwards) else { return true }
    return attribute.lowerBound > previous.lowerBound
  }
}
