import Foundation
import Testing

/// The dry-run's HTML report laid out by headless Chromium: no chart text runs off its chart,
/// long rule names included.
struct HTMLChartLayoutTests {
  /// Measures every text of every chart and lists those outside their chart's box.
  static let measuring = """
    <script>
    const clipped = [];
    let measured = 0;
    for (const svg of document.querySelectorAll('svg')) {
      const width = svg.width.baseVal.value;
      for (const text of svg.querySelectorAll('text')) {
        const box = text.getBBox();
        measured += 1;
        if (box.x < 0 || box.x + box.width > width) {
          clipped.push(text.textContent + ' [' + Math.round(box.x) + ', '
            + Math.round(box.x + box.width) + '] of ' + width);
        }
      }
    }
    const out = document.createElement('pre');
    out.id = 'layout';
    out.textContent = 'measured ' + measured + '; clipped: ' + clipped.join(' | ');
    document.body.appendChild(out);
    </script>
    """

  @Test(
    .enabled(
      if: DryRunCommandTests.chromium != nil,
      "Chromium is not installed (scripts/install-packages installs it)"))
  func noChartLabelOrNumberRunsOffItsChart() async throws {
    let folder = try await DryRunCommandTests.generated(300)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--against", "policies/prefer-refund.policy",
      "--html", folder + "/report.html",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
    // The longest rule name of the shipped policy is in the rule chart.
    #expect(html.contains(">support: grant prorated on a subscription</text>"))
    try Data(html.replacingOccurrences(of: "</body>", with: Self.measuring + "</body>").utf8)
      .write(to: URL(fileURLWithPath: folder + "/measured.html"))
    let dom = try await DryRunCommandTests.chromium([
      "--dump-dom", "--window-size=1200,1400", "file://\(folder)/measured.html",
    ])
    let layout = try #require(
      dom.components(separatedBy: "<pre id=\"layout\">").dropFirst().first?
        .components(separatedBy: "</pre>").first, "the measuring script did not run")
    #expect(layout.hasPrefix("measured ") && !layout.hasPrefix("measured 0;"), "\(layout)")
    #expect(layout.hasSuffix("clipped: "), "\(layout)")
  }
}
