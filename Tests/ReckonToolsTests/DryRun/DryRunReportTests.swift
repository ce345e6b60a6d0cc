import Foundation
import ReckonAppStore
import ReckonEngine
import Testing

@testable import ReckonTools

/// Summaries, `--against` changes and the CSV, JSON and HTML shapes on generated data.
struct DryRunReportTests {
  private func run(_ name: String, against: String?) async throws -> DryRunResult {
    let fixture = try DryRunFixture.shared()
    return try await BulkDryRun(
      policy: try fixture.policy(name), against: try against.map(fixture.policy),
      schema: fixture.setup.schema, layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
  }

  @Test func summaryCountsAddUpToTheRequests() async throws {
    let result = try await run("targeted", against: nil)
    let summary = DryRunSummary(result)
    #expect(summary.decided == 3_000)
    #expect(summary.byAction.values.reduce(0, +) == 3_000)
    #expect(summary.byRule.values.reduce(0, +) == 3_000)
    #expect(summary.byReason.values.flatMap(\.values).reduce(0, +) == 3_000)
    #expect(summary.byProductType.values.flatMap(\.values).reduce(0, +) == 3_000)
    let responding = (summary.byAction["respond"] ?? 0) + (summary.byAction["hold"] ?? 0)
    #expect(summary.byPreference.values.reduce(0, +) == responding)
    #expect(Set(summary.byProductType.keys) == ["CONSUMABLE", "NON_CONSUMABLE", "AUTO_RENEWABLE"])
  }

  @Test func aRuleThatDecidedNothingIsListedAtZero() async throws {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy(
      source: """
        rule "expensive in Germany"
          when purchase.price is not missing and purchase.price > 1000 EUR
          then share data only, hold for review

        rule "used up"
          when usage.consumed is not missing and usage.consumed >= 80%
          then refund DECLINE

        otherwise share data only
        """, named: "never-fires")
    let result = try await BulkDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
    let summary = DryRunSummary(result)
    #expect(summary.byRule["expensive in Germany"] == 0)
    #expect(summary.byRule.values.reduce(0, +) == 3_000)
    let text = DryRunText.render(result, summary)
    #expect(
      text.split(separator: "\n").contains {
        $0.hasPrefix("  expensive in Germany ")
          && $0.split(separator: " ").suffix(2) == ["0", "0.0%"]
      }, "\(text)")
  }

  @Test func htmlReportListsWhatWasLeftOutLikeTheTextSummary() async throws {
    var result = try await run("targeted", against: nil)
    result.duplicates = 3
    result.repeats = 2
    result.otherApps = 4
    result.ignored = 5
    let html = HTMLReport.dryRun(result, DryRunSummary(result))
    #expect(html.contains(#"<b id="duplicates">3</b>"#))
    #expect(html.contains(#"<b id="repeats">2</b>"#))
    #expect(html.contains(#"<b id="other-apps">4</b>"#))
    #expect(html.contains(#"<b id="ignored">5</b>"#))
    result.duplicates = 0
    result.repeats = 0
    result.otherApps = 0
    result.ignored = 0
    #expect(!HTMLReport.dryRun(result, DryRunSummary(result)).contains("Left out"))
  }

  @Test func longRuleNamesWidenTheColumnAndACutNameEndsWithAnEllipsis() async throws {
    var result = try await run("targeted", against: nil)
    // Rule names alike for their first 44 characters, one of them too long for any column.
    let prefix = "the customer asked for a refund soon after a "
    result.ruleNames = result.ruleNames.indices.map {
      $0 == 0 ? prefix + String(repeating: "very ", count: 10) + "long name" : prefix + "rule \($0)"
    }
    let text = DryRunText.render(result, DryRunSummary(result))
    let lines = text.split(separator: "\n").map(String.init)
    let whole = result.ruleNames.dropFirst().filter { name in
      lines.contains { $0.hasPrefix("  " + name + " ") }
    }
    #expect(
      whole.count
        == Set(DryRunSummary(result).byRule.keys).subtracting(
          [result.ruleNames[0], "otherwise"]).count)
    #expect(!whole.isEmpty)
    let cut = try #require(lines.first { $0.hasPrefix("  " + prefix + "very") })
    #expect(cut.contains("…"))
    #expect(cut.prefix(2 + 60).hasSuffix("…"))
  }

  @Test(arguments: [3, 17, 40])
  func summaryCountsByReasonLikeADictionaryWhateverTheNumberOfReasons(_ reasons: Int) async throws {
    var result = try await run("targeted", against: nil)
    var expected: [String: [DryRunOutcome: Int]] = [:]
    result.rows = result.rows.enumerated().map { index, row in
      var data = NotificationData()
      // Runs of one reason and interleaved ones, so both the last-key and the search paths count.
      data.rawConsumptionRequestReason = "REASON_\(index < 500 ? 0 : index * 7 % reasons)"
      var notification = ResponseBodyV2DecodedPayload()
      notification.notificationUUID = row.notificationUUID
      notification.data = data
      let request = RefundRequest(
        notification: notification, transaction: JWSTransactionDecodedPayload(),
        receivedAt: row.receivedAt)
      if let verdict = row.verdict {
        expected[data.rawConsumptionRequestReason!, default: [:]][verdict.outcome, default: 0] += 1
      }
      return DryRunRow(request: request, verdict: row.verdict, against: nil)
    }
    let summary = DryRunSummary(result)
    #expect(summary.byReason.count == reasons)
    #expect(summary.byReason == expected)
    #expect(summary.byProductType == ["unknown": summary.byOutcome])
  }

  @Test func aLargeResultCountedInPartsAddsUpLikeItsRows() async throws {
    let once = try await run("targeted", against: "prefer-refund")
    var many = once
    many.rows = Array(repeating: once.rows, count: 25).flatMap { $0 }
    #expect(many.rows.count >= 1 << 16)
    let single = DryRunSummary(once)
    let summary = DryRunSummary(many)
    func times25<K>(_ counts: [K: Int]) -> [K: Int] { counts.mapValues { $0 * 25 } }
    #expect(summary.decided == single.decided * 25)
    #expect(summary.changed == single.changed * 25)
    #expect(summary.byOutcome == times25(single.byOutcome))
    #expect(summary.againstByOutcome == times25(single.againstByOutcome))
    #expect(summary.byRule == times25(single.byRule))
    #expect(summary.transitions == times25(single.transitions))
    #expect(summary.byReason == single.byReason.mapValues(times25))
    #expect(summary.byProductType == single.byProductType.mapValues(times25))
    #expect(summary.purchaseValue == single.purchaseValue.mapValues(times25))
    #expect(summary.againstPurchaseValue == single.againstPurchaseValue.mapValues(times25))
    #expect(single.changed > 0)
  }

  @Test func againstTheSamePolicyNothingChanges() async throws {
    let summary = DryRunSummary(try await run("targeted", against: "targeted"))
    #expect(summary.changed == 0)
    #expect(summary.transitions.isEmpty)
    #expect(summary.byOutcome == summary.againstByOutcome)
  }

  @Test func againstAnotherPolicyTheChangesAddUp() async throws {
    let result = try await run("targeted", against: "prefer-refund")
    let summary = DryRunSummary(result)
    #expect(summary.changed > 0)
    #expect(summary.transitions.values.reduce(0, +) == summary.changed)
    #expect(result.rows.filter(\.changed).count == summary.changed)
    for outcome in DryRunOutcome.allCases {
      let leaving = summary.transitions.filter { $0.key.from == outcome && $0.key.to != outcome }
        .values.reduce(0, +)
      let arriving = summary.transitions.filter { $0.key.to == outcome && $0.key.from != outcome }
        .values.reduce(0, +)
      #expect(
        (summary.againstByOutcome[outcome] ?? 0) - (summary.byOutcome[outcome] ?? 0) == arriving
          - leaving)
    }
    let text = DryRunText.render(result, summary)
    #expect(text.contains("Against \"prefer-refund\""))
    #expect(text.contains("→"))
  }

  @Test func csvHasAHeaderAndOneLinePerRequestWithTheRulesOnEachSide() async throws {
    let result = try await run("targeted", against: "prefer-refund")
    var csv = ""
    DryRunRows.csv(result) { csv += $0 }
    let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 3_001)
    let header = lines[0].split(separator: ",").map(String.init)
    #expect(
      header == [
        "notification_uuid", "transaction_id", "received_at", "reason", "product_type", "price",
        "currency", "action",
        "preference", "skip_reason", "rule", "against_action", "against_preference",
        "against_skip_reason", "against_rule", "changed", "problem",
      ])
    let first = try #require(result.rows.first)
    #expect(lines[1].hasPrefix("\(first.notificationUUID),\(first.transactionId),"))
    #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(",true,") || $0.hasSuffix(",false,") })
  }

  @Test func jsonHoldsTheSummaryAndEveryRequest() async throws {
    let result = try await run("targeted", against: "prefer-refund")
    var json = ""
    DryRunRows.json(result, DryRunSummary(result)) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let requests = try #require(object["requests"] as? [[String: Any]])
    #expect(requests.count == 3_000)
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["decided"] as? Int == 3_000)
    #expect(summary["changed"] as? Int == DryRunSummary(result).changed)
    let first = try #require(requests.first)
    #expect((first["decision"] as? [String: Any])?["rule"] != nil)
    #expect((first["against"] as? [String: Any])?["action"] != nil)
  }

  @Test func htmlIsOneFileWithTheTotalsAndNoScripts() async throws {
    let result = try await run("targeted", against: "prefer-refund")
    let summary = DryRunSummary(result)
    let html = HTMLReport.dryRun(result, summary)
    #expect(html.contains("<b id=\"total\">3,000</b>"))
    #expect(
      html.contains("<b id=\"changed\">\(AppleRulesSkipTests.thousands(summary.changed))</b>"))
    #expect(html.contains("<svg"))
    #expect(!html.contains("<script"))
    #expect(!html.contains("http://") || !html.contains("src=\"http"))
  }

  /// The money behind the answers: what the customers paid, per currency and preference, summed
  /// exactly from the rows, the same total under either policy, in every output.
  @Test func purchaseValueSumsWhatTheCustomersPaidByCurrencyAndPreference() async throws {
    let result = try await run("targeted", against: "prefer-refund")
    let summary = DryRunSummary(result)
    var expected: [String: [String: Int]] = [:]
    for row in result.rows {
      guard let verdict = row.verdict, let price = row.price, let currency = row.currency else {
        continue
      }
      expected[currency, default: [:]][verdict.outcome.preference ?? "no reply", default: 0] +=
        Int(price)
    }
    #expect(!expected.isEmpty)
    #expect(summary.purchaseValueByPreference == expected)
    #expect(
      summary.againstPurchaseValueByPreference.mapValues { $0.values.reduce(0, +) }
        == expected.mapValues { $0.values.reduce(0, +) })

    let text = DryRunText.render(result, summary)
    let usd = try #require(expected["USD"])
    let line = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("  USD ") && $0.contains("in all:") })
    #expect(line.contains(DryRunText.money(usd.values.reduce(0, +)) + " in all"), "\(line)")
    #expect(line.contains("GRANT_FULL \(DryRunText.money(usd["GRANT_FULL"] ?? 0))"), "\(line)")
    // Each currency's changes add up to zero: the same purchases under either policy.
    let changes = text.split(separator: "\n").filter {
      $0.hasPrefix("  USD ") && !$0.contains("in all")
    }
    .compactMap { $0.split(separator: " ").last }
    .map {
      Int(
        ($0.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "+", with: "")
          .replacingOccurrences(of: ".", with: ""))) ?? 0
    }
    #expect(changes.count >= 3 && changes.reduce(0, +) == 0, "\(text)")
    let grants = summary.againstPurchaseValueByPreference["USD"]?["GRANT_FULL"] ?? 0
    let change = grants - (usd["GRANT_FULL"] ?? 0)
    #expect(
      text.split(separator: "\n").contains {
        $0.hasPrefix("  USD GRANT_FULL ") && $0.hasSuffix("+" + DryRunText.money(change))
      }, "\(text)")

    var json = ""
    DryRunRows.json(result, summary) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let values = try #require(
      (object["summary"] as? [String: Any])?["purchaseValueMilliunits"] as? [String: [String: Int]])
    #expect(values["USD"]?.values.reduce(0, +) == usd.values.reduce(0, +))
    let first = try #require((object["requests"] as? [[String: Any]])?.first)
    #expect(first["priceMilliunits"] as? Int == result.rows.first?.price.map(Int.init))

    let html = HTMLReport.dryRun(result, summary)
    #expect(html.contains("<table id=\"purchase-value\">"))
    #expect(html.contains(DryRunText.money(usd["GRANT_FULL"] ?? 0)))
  }

  @Test(arguments: [
    (990, "0.99"), (1_234_560, "1,234.56"), (5, "0.005"), (-2_500, "-2.50"), (0, "0.00"),
  ])
  func moneyReadsInTwoDecimalsWithThousandsSeparators(_ milli: Int, _ text: String) {
    #expect(DryRunText.money(milli) == text)
  }

  /// A price is whatever a payload says: sums of absurd ones are held at the largest amount
  /// rather than stopping the report (they overflowed and crashed it).
  @Test func absurdPricesAreSummedWithoutOverflowing() async throws {
    var result = try await run("targeted", against: "prefer-refund")
    let template = try #require(result.rows.first { $0.verdict != nil })
    func row(price: Int64) -> DryRunRow {
      var transaction = JWSTransactionDecodedPayload()
      transaction.transactionId = "1"
      transaction.price = price
      transaction.currency = "USD"
      return DryRunRow(
        request: RefundRequest(
          notification: ResponseBodyV2DecodedPayload(), transaction: transaction,
          receivedAt: Date()),
        verdict: template.verdict, against: template.against)
    }
    let huge: Int64 = 9_000_000_000_000_000_000
    result.rows = [row(price: huge), row(price: huge), row(price: -huge), row(price: -huge)]
    let summary = DryRunSummary(result)
    let outcome = try #require(template.verdict?.outcome)
    // Held at Int.max after the first two, then brought down by the other two.
    #expect(summary.purchaseValue["USD"]?[outcome] == Int.max - Int(huge) - Int(huge))
    let text = DryRunText.render(result, summary)
    #expect(text.contains("Purchase value by preference"), "\(text)")
    #expect(HTMLReport.dryRun(result, summary).contains("purchase-value"))
  }
}
