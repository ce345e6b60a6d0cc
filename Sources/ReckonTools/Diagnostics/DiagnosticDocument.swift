import Foundation
import ReckonPolicy
import ReckonSupport

/// The diagnostics of checked policy files as a document for editors and CI: Reckon's own JSON,
/// or SARIF 2.1.0, which code-scanning services and many editors read.
public enum DiagnosticDocument {
  /// A path that could not be checked at all, with why.
  public struct Failure: Hashable, Sendable {
    /// The path as given.
    public let path: String
    /// Why it was not checked.
    public let message: String

    /// A failure to check `path`.
    public init(path: String, message: String) {
      self.path = path
      self.message = message
    }
  }

  /// `{"files": [{"path", "diagnostics": [...]}], "failures": [...], "errors", "warnings"}`;
  /// each diagnostic has its code, id, severity, message, hint and 1-based start and end.
  public static func json(_ results: [PolicyLoader.Result], failures: [Failure]) -> String {
    let files: [JSONValue] = results.map { result in
      .object([
        "path": .string(result.source.path),
        "diagnostics": .array(
          result.diagnostics.map { .object(fields($0, in: result.source)) }),
      ])
    }
    let all = results.flatMap(\.diagnostics)
    let errors = all.filter(\.isError).count + failures.count
    return encode(
      .object([
        "files": .array(files),
        "failures": .array(
          failures.map { .object(["path": .string($0.path), "message": .string($0.message)]) }),
        "errors": .integer(errors), "warnings": .integer(all.count - all.filter(\.isError).count),
      ]))
  }

  /// One diagnostic's fields in `json`: its code, id, severity, message, hint and 1-based
  /// start and end in `source`.
  public static func fields(_ diagnostic: Diagnostic, in source: SourceFile) -> [String: JSONValue]
  {
    var fields = location(diagnostic, in: source)
    fields["code"] = .string(diagnostic.id.code)
    fields["id"] = .string(diagnostic.id.rawValue)
    fields["severity"] = .string(diagnostic.severity.rawValue)
    fields["message"] = .string(diagnostic.message)
    fields["hint"] = diagnostic.hint.map(JSONValue.string) ?? .null
    return fields
  }

  /// A SARIF 2.1.0 log of one run: a rule per code that occurs, a result per diagnostic, and a
  /// notification per path that could not be checked.
  public static func sarif(
    _ results: [PolicyLoader.Result], failures: [Failure], toolVersion: String
  ) -> String {
    var ids: [DiagnosticID] = []
    for diagnostic in results.flatMap(\.diagnostics) where !ids.contains(diagnostic.id) {
      ids.append(diagnostic.id)
    }
    let rules: [JSONValue] = ids.map { id in
      .object([
        "id": .string(id.code), "name": .string(id.rawValue),
        "shortDescription": .object(["text": .string(id.summary)]),
        "help": .object(["text": .string("reckon explain \(id.code)")]),
        "defaultConfiguration": .object(["level": .string(level(id.severity))]),
      ])
    }
    let found: [JSONValue] = results.flatMap { result in
      result.diagnostics.map { diagnostic in
        let place = location(diagnostic, in: result.source, utf16: true)
        let text = diagnostic.message + (diagnostic.hint.map { " (\($0))" } ?? "")
        return .object([
          "ruleId": .string(diagnostic.id.code),
          "ruleIndex": .integer(ids.firstIndex(of: diagnostic.id) ?? 0),
          "level": .string(level(diagnostic.severity)),
          "message": .object(["text": .string(text)]),
          "locations": .array([
            .object([
              "physicalLocation": .object([
                "artifactLocation": .object(["uri": .string(result.source.path)]),
                "region": .object([
                  "startLine": place["line"]!, "startColumn": place["column"]!,
                  "endLine": place["endLine"]!, "endColumn": place["endColumn"]!,
                ]),
              ])
            ])
          ]),
        ])
      }
    }
    let notifications: [JSONValue] = failures.map { failure in
      .object([
        "level": .string("error"), "message": .object(["text": .string(failure.message)]),
        "locations": .array([
          .object([
            "physicalLocation": .object([
              "artifactLocation": .object(["uri": .string(failure.path)])
            ])
          ])
        ]),
      ])
    }
    let run: JSONValue = .object([
      "tool": .object([
        "driver": .object([
          "name": .string("reckon"), "version": .string(toolVersion), "rules": .array(rules),
        ])
      ]),
      // SARIF's default, and what editors and code-scanning services count in: a character
      // may be several units (an emoji, an accent written as its own code point).
      "columnKind": .string("utf16CodeUnits"),
      "results": .array(found),
      "invocations": .array([
        .object([
          "executionSuccessful": .bool(failures.isEmpty),
          "toolExecutionNotifications": .array(notifications),
        ])
      ]),
    ])
    return encode(
      .object([
        "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
        "version": .string("2.1.0"), "runs": .array([run]),
      ]))
  }

  private static func level(_ severity: Diagnostic.Severity) -> String {
    severity == .error ? "error" : "warning"
  }

  /// `line`, `column`, `endLine`, `endColumn`, 1-based; the end is just past the span, and an
  /// empty span ends where it starts. Columns count characters, or with `utf16` UTF-16 units.
  private static func location(
    _ diagnostic: Diagnostic, in source: SourceFile, utf16: Bool = false
  ) -> [String: JSONValue] {
    let place = utf16 ? source.utf16Location(of:) : source.location(of:)
    let start = place(diagnostic.span.start)
    let end = place(max(diagnostic.span.end, diagnostic.span.start))
    return [
      "line": .integer(start.line), "column": .integer(start.column),
      "endLine": .integer(end.line), "endColumn": .integer(end.column),
    ]
  }

  private static func encode(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
