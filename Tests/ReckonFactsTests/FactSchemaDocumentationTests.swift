import Foundation
import ReckonFacts
import Testing

/// docs/facts.md is generated from the schema table. To regenerate it after changing the table:
/// `RECKON_UPDATE_DOCS=1 swift test --filter FactSchemaDocumentationTests`.
struct FactSchemaDocumentationTests {
  @Test func docsFactsMarkdownIsTheSchemaTable() throws {
    let url = Fixtures.repo("docs/facts.md")
    let rendered = FactSchema.markdown()
    if ProcessInfo.processInfo.environment["RECKON_UPDATE_DOCS"] == "1" {
      try Data(rendered.utf8).write(to: url)
    }
    let written = try String(contentsOf: url, encoding: .utf8)
    #expect(
      written == rendered,
      "docs/facts.md differs from FactSchema; regenerate it with RECKON_UPDATE_DOCS=1")
  }

  @Test(arguments: [FactSchema.standard, .googlePlay])
  func everyStandardFactOfEachStoreHasARow(schema: FactSchema) {
    let markdown = FactSchema.markdown()
    for entry in schema.entries {
      #expect(
        markdown.contains(
          "| `\(entry.descriptor.name)` | \(entry.descriptor.type) | \(entry.descriptor.isOptional ? "yes" : "no") | \(entry.origin.rawValue) | \(entry.descriptor.summary) |"
        ))
    }
  }
}
