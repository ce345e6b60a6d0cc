import Foundation
import ReckonAppStore
import ReckonEngine

/// A dry-run's rows as CSV or JSON, one request each, written in pieces so a million rows never
/// sit in one string.
public enum DryRunRows {
  /// The CSV header and one line per row, handed to `write` in chunks.
  public static func csv(_ result: DryRunResult, write: (String) -> Void) {
    var header =
      "notification_uuid,transaction_id,received_at,reason,product_type,price,currency,action,preference,skip_reason,rule"
    if result.againstName != nil {
      header += ",against_action,against_preference,against_skip_reason,against_rule,changed"
    }
    // The store's column only when some row is Google Play's: an App Store run reads as it
    // always did, and the column comes last so every other keeps its place.
    let stores = result.hasGooglePlayRows
    write(header + (stores ? ",problem,store\n" : ",problem\n"))
    var chunk = ""
    for row in result.rows {
      var fields = [
        row.notificationUUID, row.transactionId, timestamp(row.receivedAt), row.reason ?? "",
        row.productType ?? "",
        row.price.map { DryRunText.money(Int($0), grouped: false) } ?? "",
        row.currency ?? "",
      ]
      fields += verdictFields(row.verdict, result.ruleName)
      if result.againstName != nil {
        fields += verdictFields(row.against, result.againstRuleName)
        fields.append(row.changed ? "true" : "false")
      }
      fields.append(row.problem ?? "")
      if stores { fields.append(row.store.rawValue) }
      chunk += fields.map(escape).joined(separator: ",") + "\n"
      if chunk.utf8.count > 1 << 16 {
        write(chunk)
        chunk = ""
      }
    }
    write(chunk)
  }

  /// `{"policy", "against", "summary", "requests": [...]}`, handed to `write` in chunks.
  public static func json(_ result: DryRunResult, _ summary: DryRunSummary, write: (String) -> Void)
  {
    write("{\"policy\":\(quote(result.policyName)),")
    if let against = result.againstName { write("\"against\":\(quote(against)),") }
    write("\"stopped\":\(result.stopped),\"total\":\(result.total),\"ignored\":\(result.ignored),")
    if let read = result.linesRead, let lines = result.lines {
      write("\"linesRead\":\(read),\"lines\":\(lines),")
    }
    write("\"otherApps\":\(result.otherApps),")
    if let other = result.otherStore { write("\"otherStore\":\(other),") }
    let unreadable = result.unreadable.first.map { quote($0.description) }
    write(
      "\"unreadable\":\(result.unreadable.count),"
        + "\"unreadableLines\":[\(unreadable.joined(separator: ","))],")
    write("\"duplicates\":\(result.duplicates),\"repeats\":\(result.repeats),")
    write("\"summary\":\(DryRunJSONSummary.json(summary)),\"requests\":[")
    var chunk = ""
    let stores = result.hasGooglePlayRows
    for (index, row) in result.rows.enumerated() {
      var object =
        "{\"notificationUUID\":\(quote(row.notificationUUID)),\"transactionId\":\(quote(row.transactionId)),"
        + "\"receivedAt\":\(quote(timestamp(row.receivedAt))),\"reason\":\(optional(row.reason)),\"productType\":\(optional(row.productType))"
        + ",\"priceMilliunits\":\(row.price.map(String.init) ?? "null"),\"currency\":\(optional(row.currency))"
      if let verdict = row.verdict {
        object += ",\"decision\":\(verdictJSON(verdict, result.ruleName))"
      }
      if let against = row.against {
        object +=
          ",\"against\":\(verdictJSON(against, result.againstRuleName)),\"changed\":\(row.changed)"
      }
      if let problem = row.problem { object += ",\"problem\":\(quote(problem))" }
      if stores { object += ",\"store\":\(quote(row.store.rawValue))" }
      chunk += (index == 0 ? "" : ",") + object + "}"
      if chunk.utf8.count > 1 << 16 {
        write(chunk)
        chunk = ""
      }
    }
    write(chunk + "]}\n")
  }

  private static func verdictFields(_ verdict: DryRunVerdict?, _ rule: (Int?) -> String) -> [String]
  {
    guard let verdict else { return ["", "", "", ""] }
    let outcome = verdict.outcome
    return [
      outcome.action, outcome.preference ?? "", skipReason(verdict), rule(verdict.ruleIndex),
    ]
  }

  /// The skip's kind; for a body that breaks Apple's rules, with each rule in words, so the row
  /// says why no reply goes (as the JSON row's `reason` does).
  private static func skipReason(_ verdict: DryRunVerdict) -> String {
    if case .skip(.violatesGooglePlayRules(let violations)) = verdict.action {
      return "\(verdict.outcome.skipKind ?? ""): "
        + violations.map(\.description).joined(separator: "; ")
    }
    guard case .skip(.violatesAppleRules(let violations)) = verdict.action else {
      return verdict.outcome.skipKind ?? ""
    }
    let held = SkipReason.violatesAppleRules(violations).heldValue(in: verdict.body)
    return "\(verdict.outcome.skipKind ?? ""): "
      + violations.map(\.inWords).joined(separator: " ") + (held.map { " " + $0 } ?? "")
  }

  private static func verdictJSON(_ verdict: DryRunVerdict, _ rule: (Int?) -> String) -> String {
    let outcome = verdict.outcome
    var object = "{\"action\":\(quote(outcome.action)),\"rule\":\(quote(rule(verdict.ruleIndex)))"
    if let preference = outcome.preference { object += ",\"preference\":\(quote(preference))" }
    if case .skip(let reason) = verdict.action {
      object += ",\"reason\":\(quote(reason.description(body: verdict.body)))"
    }
    if let body = verdict.body, let data = try? body.jsonData() {
      object += ",\"body\":" + String(decoding: data, as: UTF8.self)
    }
    if let answer = verdict.answer { object += ",\"answer\":" + answer.json }
    return object + "}"
  }

  static func timestamp(_ date: Date) -> String {
    // Decoding refuses times outside years 1 to 9999; a date from elsewhere that no Int64
    // holds prints as its number rather than stopping the process.
    guard let milliseconds = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()),
      AppStoreJSON.millisecondRange.contains(Double(milliseconds))
    else { return "\(date.timeIntervalSince1970)" }
    let seconds = milliseconds / 1000
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900,
      Int(parts.tm_mon) + 1,
      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
      Int(milliseconds % 1000))
  }

  /// A CSV field: quoted when it holds a comma, a quote or a line break, and, when it is text a
  /// spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first:
  /// a rule name or a request file's field), with a `'` before it. Numbers stay as they are.
  static func escape(_ field: String) -> String {
    var field = field
    if let first = field.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first),
      Double(field) == nil
    {
      field = "'" + field
    }
    // By scalar: "\r\n" is one Character, equal to neither "\n" nor "\r".
    guard
      field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
    else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  private static func optional(_ text: String?) -> String { text.map(quote) ?? "null" }
}

/// The summary as a JSON object.
enum DryRunJSONSummary {
  static func json(_ summary: DryRunSummary) -> String {
    var parts = [
      "\"decided\":\(summary.decided)", "\"undecided\":\(summary.undecided)",
      "\"withoutFacts\":\(summary.withoutFacts)",
      "\"byAction\":\(object(summary.byAction))",
      "\"byPreference\":\(object(summary.byPreference))",
      "\"byOutcome\":\(object(names(summary.byOutcome)))", "\"byRule\":\(object(summary.byRule))",
      "\"byReason\":\(nested(summary.byReason))",
      "\"byProductType\":\(nested(summary.byProductType))",
      "\"breaksAppleRules\":\(appleRules(summary))",
      "\"purchaseValueMilliunits\":\(nested(summary.purchaseValue))",
    ]
    if !summary.againstByOutcome.isEmpty {
      parts.append("\"changed\":\(summary.changed)")
      parts.append("\"againstByOutcome\":\(object(names(summary.againstByOutcome)))")
      parts.append(
        "\"againstPurchaseValueMilliunits\":\(nested(summary.againstPurchaseValue))")
      let transitions = summary.transitions.sorted { $0.key < $1.key }.map {
        "{\"from\":\(DryRunRows.quote($0.key.from.jsonName)),\"to\":\(DryRunRows.quote($0.key.to.jsonName)),\"count\":\($0.value)}"
      }
      parts.append("\"changes\":[\(transitions.joined(separator: ","))]")
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// `{"requests": N, "byRule": {...}, "byAppleRule": {...}}`: the requests that get no reply
  /// because the body breaks Apple's rules.
  private static func appleRules(_ summary: DryRunSummary) -> String {
    let total = summary.breaksAppleRules.values.reduce(0, +)
    let broken = Dictionary(
      uniqueKeysWithValues: summary.breaksAppleRule.map { ($0.key.errorName, $0.value) })
    return "{\"requests\":\(total),\"byRule\":\(object(summary.breaksAppleRules)),"
      + "\"byAppleRule\":\(object(broken))}"
  }

  private static func names(_ counts: [DryRunOutcome: Int]) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: counts.map { ($0.key.jsonName, $0.value) })
  }

  private static func object(_ counts: [String: Int]) -> String {
    "{"
      + counts.sorted { $0.key < $1.key }.map { "\(DryRunRows.quote($0.key)):\($0.value)" }
      .joined(separator: ",") + "}"
  }

  private static func nested(_ groups: [String: [DryRunOutcome: Int]]) -> String {
    "{"
      + groups.sorted { $0.key < $1.key }.map {
        "\(DryRunRows.quote($0.key)):\(object(names($0.value)))"
      }
      .joined(separator: ",") + "}"
  }
}
