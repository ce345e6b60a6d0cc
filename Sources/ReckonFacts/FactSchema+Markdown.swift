import ReckonPolicy

extension FactSchema {
  /// The whole of docs/facts.md, rendered from the App Store's table and Google Play's, so the
  /// documentation never drifts.
  public static func markdown() -> String {
    var lines = [
      "# Facts",
      "",
      "<!-- Generated from FactSchema (Sources/ReckonFacts/FactSchema.swift) by FactSchema.markdown().",
      "     Do not edit by hand: FactSchemaDocumentationTests fails when this file and the table differ. -->",
      "",
      "Every fact a policy may read, its type, whether a request may lack it, and where its value comes from:",
      "",
      "- **notification**: the signed notification itself. No adapter can override these.",
      "- **adapter**: the app's own systems, through the configured fact sources (SQLite, JSON files, or an",
      "  embedder's own `FactSource`), in configured order; the first source that supplies a fact wins.",
      "- **records**: Reckon's own records of earlier requests and outcomes.",
      "",
      "A fact marked *optional* may be missing on a normal request; reading it without an `is missing` guard",
      "draws a warning. Any fact can be missing when no source supplies it (see docs/configuration.md,",
      "\"When a fact source fails\").",
      "",
      "",
      "## App Store",
      "",
    ]
    lines += FactSchema.standard.table()
    lines += [
      "", "## Google Play", "",
      "A Google Play chargeback review is decided on these facts. Where a fact means the same thing for",
      "both stores it has the same name, so one fact source can serve both; the review names only the",
      "order, so product and purchase facts come from the app's records (for Apple's requests, a",
      "source serving both stores has them left out: docs/google-play.md, \"Fact sources\"). Fact",
      "sources are asked with the order id as the transaction id and the obfuscated account id as",
      "the app account token.",
      "",
    ]
    lines += FactSchema.googlePlay.table()
    lines += [
      "", "## Custom facts", "",
      "A fact source's configuration may declare `custom.NAME` facts with a type ("
        + FactSchema.customFactTypes.keys.sorted()
        .joined(separator: ", ") + "),",
      "e.g. `\"customFacts\": {\"custom.vip\": \"boolean\"}`. They come from adapters and are optional.",
      "`reckon check`, `reckon test` and `reckon eval` know them when given that configuration:",
      "`reckon check --config reckon.json policies/`.",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  /// The schema's table of facts and of the enumerations they use.
  private func table() -> [String] {
    var lines = ["| name | type | optional | origin | summary |", "|---|---|---|---|---|"]
    for entry in entries {
      let fact = entry.descriptor
      lines.append(
        "| `\(fact.name)` | \(fact.type) | \(fact.isOptional ? "yes" : "no") | \(entry.origin.rawValue) | \(fact.summary) |"
      )
    }
    lines += ["", "| type | values |", "|---|---|"]
    var seen: Set<String> = []
    for case .enumeration(let enumType) in entries.map(\.descriptor.type)
    where seen.insert(enumType.name).inserted {
      lines.append(
        "| \(enumType.name) | " + enumType.cases.map { "`\($0)`" }.joined(separator: ", ") + " |")
    }
    return lines
  }
}
