import Foundation
import Testing

/// The TextMate grammars under `editors/` parse, and their patterns colour what they claim to.
struct EditorGrammarTests {
  struct Sample: CustomTestStringConvertible, Sendable {
    let grammar: String
    let text: String
    let scope: String
    var testDescription: String { "\(text) is \(scope) in \(grammar)" }
  }

  static let folder = ReckonBinary.packageRoot.appendingPathComponent("editors/vscode-reckon")

  static let samples: [Sample] =
    ["policy", "version", "description", "let", "rule", "when", "then", "otherwise"].map {
      Sample(grammar: "reckon-policy", text: $0, scope: "keyword.control.declaration.reckon")
    }
    + ["and", "or", "not", "in", "is", "missing", "contains"].map {
      Sample(grammar: "reckon-policy", text: $0, scope: "keyword.operator.logical.reckon")
    }
    + ["refund", "share data only", "do not respond", "hold for review", "set", "follow"].map {
      Sample(grammar: "reckon-policy", text: $0, scope: "keyword.other.action.reckon")
    }
    + [
      Sample(
        grammar: "reckon-policy", text: "hold \"big\"", scope: "keyword.control.declaration.reckon")
    ]
    + ["2026-11-01", "2026-11-01T10:00:00Z", "2026-11-01T12:00:00+02:00"].map {
      Sample(grammar: "reckon-policy", text: $0, scope: "constant.other.date.reckon")
    }
    + ["test", "given", "expect", "store"].map {
      Sample(grammar: "reckon-tests", text: $0, scope: "keyword.control.clause.reckon")
    }
    + ["reckon-policy", "reckon-tests"].flatMap { grammar in
      [
        Sample(grammar: grammar, text: "# a comment", scope: "comment.line.number-sign.reckon"),
        Sample(grammar: grammar, text: "40%", scope: "constant.numeric.percent.reckon"),
        Sample(grammar: grammar, text: "12.5%", scope: "constant.numeric.percent.reckon"),
        Sample(grammar: grammar, text: "4.99 USD", scope: "constant.numeric.money.reckon"),
        Sample(grammar: grammar, text: "90 days", scope: "constant.numeric.duration.reckon"),
        Sample(grammar: grammar, text: "usage.consumed", scope: "variable.other.fact.reckon"),
        Sample(grammar: grammar, text: "UNDELIVERED_OTHER", scope: "constant.other.enum.reckon"),
      ]
    }

  static func grammar(_ name: String) throws -> [String: Any] {
    let data = try Data(
      contentsOf: folder.appendingPathComponent("syntaxes/\(name).tmLanguage.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theExtensionManifestNamesBothGrammars() throws {
    let data = try Data(contentsOf: Self.folder.appendingPathComponent("package.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let contributes = try #require(manifest["contributes"] as? [String: Any])
    let grammars = try #require(contributes["grammars"] as? [[String: Any]])
    #expect(
      Set(grammars.compactMap { $0["scopeName"] as? String }) == [
        "source.reckon.policy", "source.reckon.tests",
      ])
    for grammar in grammars {
      let path = try #require(grammar["path"] as? String)
      #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(path).path))
    }
  }

  @Test(arguments: samples)
  func colours(_ sample: Sample) throws {
    let grammar = try Self.grammar(sample.grammar)
    let repository = try #require(grammar["repository"] as? [String: [String: Any]])
    let order = try #require(grammar["patterns"] as? [[String: String]]).compactMap {
      $0["include"]?.dropFirst()
    }
    // The first pattern in order that matches at the start of the text decides, as in a TextMate engine.
    let scope = order.lazy.compactMap { key -> String? in
      guard let rule = repository[String(key)],
        let pattern = (rule["match"] ?? rule["begin"]) as? String,
        let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]),
        let match = regex.firstMatch(
          in: sample.text, range: NSRange(sample.text.startIndex..., in: sample.text)),
        match.range.location == 0
      else { return nil }
      return rule["name"] as? String
    }.first
    #expect(scope == sample.scope)
  }
}
