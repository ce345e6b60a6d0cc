import Foundation
import ReckonTestSupport
import Testing

/// The outcomes report's HTML over time, laid out by headless Chromium: a column and a point
/// per period in the time-series charts, no label running off its chart at a screen's width
/// or a printed page's, and the page printing to PDF.
struct OutcomeReportLayoutTests {
  /// Counts each time chart's columns and points and lists the texts outside their chart as
  /// drawn (turned labels included), for the page at the window's width.
  static let measuring = """
    <script>
    const charts = [];
    const clipped = [];
    for (const svg of document.querySelectorAll('svg')) {
      const frame = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll('text')) {
        const box = text.getBoundingClientRect();
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5
          || box.bottom > frame.bottom + 0.5 || box.top < frame.top - 0.5) {
          clipped.push(text.textContent);
        }
      }
      if (frame.right > document.documentElement.clientWidth + 0.5) {
        clipped.push('chart ' + svg.getAttribute('aria-label') + ' wider than the page');
      }
      if (svg.classList.contains('time-chart')) {
        charts.push(svg.closest('figure').id + '=' + svg.querySelectorAll('g.period').length
          + '/' + svg.querySelectorAll('circle.point').length
          + '/' + svg.querySelectorAll('text.x-label').length);
      }
    }
    const out = document.createElement('pre');
    out.id = 'layout';
    out.textContent = 'charts ' + charts.join(' ') + '; clipped: ' + clipped.join(' | ');
    document.body.appendChild(out);
    </script>
    """

  static func layout(_ folder: String, width: Int) async throws -> String {
    let html = try String(contentsOfFile: folder + "/outcomes.html", encoding: .utf8)
    try Data(html.replacingOccurrences(of: "</body>", with: Self.measuring + "</body>").utf8)
      .write(to: URL(fileURLWithPath: folder + "/measured.html"))
    let dom = try await DryRunCommandTests.chromium([
      "--dump-dom", "--window-size=\(width),1400", "file://\(folder)/measured.html",
    ])
    return try #require(
      dom.components(separatedBy: "<pre id=\"layout\">").dropFirst().first?
        .components(separatedBy: "</pre>").first, "the measuring script did not run")
  }

  @Test(
    .enabled(
      if: DryRunCommandTests.chromium != nil,
      "Chromium is not installed (scripts/install-packages installs it)"))
  func theChartsOverTimeHaveAColumnPerPeriodAndFitTheScreenAndThePage() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-layout-\(UUID().uuidString)")
      .path
    let generated = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "300", "--seed", "2", "--state", "yes",
      "--until", "2026-12-07",
    ])
    #expect(generated.status == 0, "\(generated.standardError)")
    // The requests span the 90 days before 2026-12-07 (ISO weeks 37 to 49): the window's first
    // week and its last two have none, and are charted as zeros, without a rate.
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--by", "week",
      "--since", "2026-09-01", "--until", "2026-12-15", "--html", folder + "/outcomes.html",
      "--format", "json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let weeks = run.standardOutput.components(separatedBy: "\"label\":\"").count - 1
    #expect(weeks == 16)
    for width in [1200, 700] {
      let layout = try await Self.layout(folder, width: width)
      #expect(layout.hasSuffix("clipped: "), "at \(width) px: \(layout)")
      let charts = Dictionary(
        uniqueKeysWithValues: layout.dropFirst("charts ".count).prefix { $0 != ";" }
          .split(separator: " ").compactMap { entry -> (String, [Int])? in
            let parts = entry.split(separator: "=")
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), parts[1].split(separator: "/").compactMap { Int($0) })
          })
      // A column per week, and a rate point per week with an outcome.
      #expect(charts["requests-over-time"]?.first == weeks, "\(layout)")
      #expect(charts["rate-over-time"]?[1] == weeks - 3, "\(layout)")
      #expect((charts["rate-over-time"]?[2] ?? 0) > 0, "\(layout)")
    }
    let pdf = folder + "/outcomes.pdf"
    _ = try await DryRunCommandTests.chromium([
      "--print-to-pdf=\(pdf)", "--no-pdf-header-footer", "file://\(folder)/outcomes.html",
    ])
    let printed = try Data(contentsOf: URL(fileURLWithPath: pdf))
    #expect(printed.starts(with: Data("%PDF".utf8)))
    #expect(printed.count > 10_000)
  }
}
