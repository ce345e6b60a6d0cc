import Foundation
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// The HTML report's bar charts leave room for their labels, cut only what would not fit on the
/// page (keeping the whole text as a tooltip), and group thousands as the text summary does.
struct HTMLChartTests {
  /// Each label element's `x` (its right end: labels are anchored at the end) and its text.
  static func labels(_ svg: String) -> [(x: Int, text: String)] {
    svg.components(separatedBy: "<text x=\"").dropFirst().compactMap { element in
      guard element.contains("text-anchor=\"end\"") else { return nil }
      let x = Int(element.prefix { $0.isNumber }) ?? -1
      guard let start = element.firstIndex(of: ">"), let end = element.range(of: "</text>")
      else { return nil }
      return (x, String(element[element.index(after: start)..<end.lowerBound]))
    }
  }

  @Test(arguments: [
    "support: grant prorated on a subscription", "UNSATISFIED_WITH_PURCHASE",
    "skip (rule set a missing fact)", "a",
  ])
  func aLabelHasRoomForItsWholeText(_ label: String) throws {
    let svg = SVGBarChart(title: "Deciding rule", bars: [(label, 3), ("other", 40)]).render()
    let drawn = try #require(Self.labels(svg).first)
    #expect(drawn.text == label, "the label was cut")
    // 7.5 pixels a character: the average width of a 13px sans-serif label, which a column
    // fitted to the label must at least give it.
    #expect(drawn.x >= Int((7.5 * Double(label.count)).rounded(.up)), "\(svg)")
  }

  @Test func aLabelTooWideForThePageIsCutAndKeptWholeInATooltip() throws {
    let long = "support: " + String(repeating: "grant prorated on a subscription, ", count: 6)
    let svg = SVGBarChart(title: "Deciding rule", bars: [(long, 3)]).render()
    let drawn = try #require(Self.labels(svg).first)
    #expect(drawn.text.hasPrefix("<title>\(long)</title>support: grant"), "\(drawn.text)")
    #expect(drawn.text.hasSuffix("…"))
    let width = try #require(
      Int(svg.components(separatedBy: "width=\"")[1].prefix { $0.isNumber }))
    // The page is at most 1100 pixels wide.
    #expect(width <= 1_000, "\(svg)")
  }

  @Test func barValuesGroupThousands() {
    var chart = SVGBarChart(title: "Answers", bars: [("respond", 12_345), ("skip", 999)])
    chart.secondary = [1_234_567, 0]
    let svg = chart.render()
    #expect(svg.contains(">12,345</text>") && svg.contains(">999</text>"))
    #expect(svg.contains(">1,234,567</text>"))
  }

  @Test func theDryRunReportGroupsThousandsInItsTotalsAndTables() async throws {
    let fixture = try DryRunFixture.shared()
    let result = try await fixture.bulkRun("targeted")
    let summary = DryRunSummary(result)
    let html = HTMLReport.dryRun(result, summary)
    #expect(
      html.contains("<b id=\"total\">3,000</b>") && html.contains("<b id=\"decided\">3,000</b>"))
    let respond = try #require(summary.byAction["respond"])
    #expect(respond >= 1_000)
    #expect(html.contains("<td>respond</td><td class=\"n\">\(DryRunText.n(respond))</td>"))
  }
}
