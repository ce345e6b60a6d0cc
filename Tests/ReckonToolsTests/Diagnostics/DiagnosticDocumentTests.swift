import Foundation
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// `reckon check --format json|sarif` writes the problems as one document for editors and CI.
struct DiagnosticDocumentTests {
  static let result = PolicyLoader.load(
    SourceFile(
      path: "policies/p.policy",
      text: "let unused = 1\nrule \"r\"\n  when usage.consumd > 50%\n  then refund DECLINE\n"),
    schema: FactSchema.standard.policySchema)

  static func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func theJSONNamesEachProblemsCodePlaceAndHint() throws {
    let failure = DiagnosticDocument.Failure(path: "missing/", message: "no such folder")
    let document = try Self.object(DiagnosticDocument.json([Self.result], failures: [failure]))
    #expect(document["errors"] as? Int == 2)
    #expect(document["warnings"] as? Int == 0)
    let files = try #require(document["files"] as? [[String: Any]])
    let problems = try #require(files.first?["diagnostics"] as? [[String: Any]])
    let fact = try #require(problems.first { $0["id"] as? String == "unknown-fact" })
    #expect(fact["code"] as? String == "P0306")
    #expect(fact["severity"] as? String == "error")
    #expect(fact["line"] as? Int == 3)
    #expect(fact["column"] as? Int == 8)
    #expect(fact["endColumn"] as? Int == 21)
    #expect(fact["hint"] as? String == "did you mean 'usage.consumed'?")
    let failures = try #require(document["failures"] as? [[String: Any]])
    #expect(failures.first?["path"] as? String == "missing/")
  }

  @Test func theSARIFLogHasARulePerCodeAndAResultPerProblem() throws {
    let log = try Self.object(
      DiagnosticDocument.sarif([Self.result], failures: [], toolVersion: "9.9.9"))
    #expect(log["version"] as? String == "2.1.0")
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "reckon")
    #expect(driver["version"] as? String == "9.9.9")
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == Self.result.diagnostics.count)
    for result in results {
      let index = try #require(result["ruleIndex"] as? Int)
      #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
    }
    let first = try #require(results.first { $0["ruleId"] as? String == "P0306" })
    #expect(first["level"] as? String == "error")
    let location = try #require((first["locations"] as? [[String: Any]])?.first)
    let physical = try #require(location["physicalLocation"] as? [String: Any])
    #expect(
      (physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "policies/p.policy")
    let region = try #require(physical["region"] as? [String: Any])
    #expect(region["startLine"] as? Int == 3)
    #expect(region["startColumn"] as? Int == 8)
  }

  /// SARIF's columns are in the units it declares, UTF-16, where a family emoji is eight and an
  /// accent written as its own code point one more; the terminal and the JSON count characters.
  @Test func theSARIFColumnsAreUTF16UnitsAsItSays() throws {
    let line = "  when product.id == \"👨‍👩‍👧e\u{301}\" and reason == LEGL\n"
    let result = PolicyLoader.load(
      SourceFile(path: "p.policy", text: "rule \"a\"\n" + line + "  then refund DECLINE\n"),
      schema: FactSchema.standard.policySchema)
    let log = try Self.object(DiagnosticDocument.sarif([result], failures: [], toolVersion: "1"))
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    #expect(run["columnKind"] as? String == "utf16CodeUnits")
    let results = try #require(run["results"] as? [[String: Any]])
    let region = try #require(
      ((results.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"]
        as? [String: Any])?["region"] as? [String: Any])
    let before = try #require(line.range(of: "LEGL")).lowerBound
    #expect(region["startColumn"] as? Int == line[..<before].utf16.count + 1)
    #expect(region["endColumn"] as? Int == line[..<before].utf16.count + 5)
    let document = try Self.object(DiagnosticDocument.json([result], failures: []))
    let problem = try #require(
      ((document["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]])?.first)
    #expect(problem["column"] as? Int == line[..<before].count + 1)
  }

  @Test func explainShowsTheExampleAndWhatCheckSaysOfIt() {
    let text = DiagnosticExplanation.text(for: .unknownFact)
    #expect(text.hasPrefix("P0306 unknown-fact (error)\n"))
    #expect(text.contains("  a fact the schema does not have"))
    #expect(text.contains("reckon check says:\n  example.policy:2:8: error[P0306]: unknown fact"))
  }

  @Test(arguments: [DiagnosticID.givenLet, .unansweredRequests, .duplicateGiven])
  func everyCodeHasAnEntry(_ id: DiagnosticID) {
    let text = DiagnosticExplanation.text(for: id)
    #expect(text.hasPrefix("\(id.code) \(id.rawValue)"))
    #expect(text.contains(id.summary))
  }

  /// The problems `reckon test` finds, and the one found before a policy goes live, have an
  /// example too, run as those find them.
  @Test(arguments: [
    DiagnosticID.givenLet, .invalidTestValue, .invalidExpectedValue, .unansweredRequests,
  ])
  func aProblemFoundLaterHasAnExampleRunAsItIsFound(_ id: DiagnosticID) {
    let text = DiagnosticExplanation.text(for: id)
    #expect(text.contains("For example, example.policy:"))
    let tool = id == .unansweredRequests ? "reckon check says:" : "reckon test says:"
    #expect(text.contains(tool), "\(text)")
    #expect(text.contains("error[\(id.code)]"), "\(text)")
  }

  @Test func theCatalogueListsEveryCodeOnce() {
    let lines = DiagnosticExplanation.catalogue().split(separator: "\n")
    #expect(lines.count == DiagnosticID.allCases.count)
    #expect(lines.first?.hasPrefix("P0101") == true)
  }
}
