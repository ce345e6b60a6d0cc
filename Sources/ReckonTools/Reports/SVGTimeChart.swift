import Foundation

/// A chart over time as inline SVG: a column per period, its series stacked (or, for rates, a
/// point per period joined by a line), the labels under it thinned so they never overlap and
/// turned so the last never runs off the right edge. It scales down to the page (viewBox), so
/// it prints whole; no scripts, no external resources.
struct SVGTimeChart {
  /// One stacked part of every column (or the line).
  struct Series {
    let name: String
    let color: String
    /// A value per period; nil where the period has none (a rate with no outcome), drawn as a
    /// gap, not as zero.
    let values: [Double?]
  }

  let title: String
  let labels: [String]
  let series: [Series]
  /// How a value is written in the axis and tooltips.
  var format: (Double) -> String = { DryRunText.n(Int($0.rounded())) }
  /// Whether to draw points joined by a line rather than stacked columns.
  var points = false
  /// A fixed top of the scale (1 for a rate), or nil for the largest column.
  var maximum: Double? = nil

  static let width = 960.0
  static let left = 80.0
  static let right = 16.0
  static let top = 34.0
  static let plotHeight = 180.0

  /// The widest label drawn, in pixels.
  private var labelWidth: Double { labels.map { SVGBarChart.width(of: $0) }.max() ?? 0 }

  /// Every how many periods a label is written, so labels (turned 45°) keep apart.
  var labelStep: Int {
    let slot = (Self.width - Self.left - Self.right) / Double(max(1, labels.count))
    return max(1, Int((18.0 / slot).rounded(.up)))
  }

  func render() -> String {
    let slot = (Self.width - Self.left - Self.right) / Double(max(1, labels.count))
    let top = maximum ?? max(1, columnTops.max() ?? 1)
    let labelsHeight = labelWidth * 0.72 + 16
    let legendY = Self.top + Self.plotHeight + labelsHeight + 14
    let height = legendY + 16
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"time-chart\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" width=\"\(Int(Self.width))\" height=\"\(Int(height))\" style=\"max-width:100%;height:auto\">"
    svg += "<text x=\"0\" y=\"18\" class=\"chart-title\">\(HTMLText.escape(title))</text>"
    svg += axis(top)
    svg += points ? line(slot, top) : columns(slot, top)
    svg += xLabels(slot)
    svg += legend(y: legendY)
    return svg + "</svg>"
  }

  private var columnTops: [Double] {
    labels.indices.map { index in series.reduce(0) { $0 + ($1.values[index] ?? 0) } }
  }

  private func y(_ value: Double, _ top: Double) -> Double {
    Self.top + Self.plotHeight - value / top * Self.plotHeight
  }

  private func axis(_ top: Double) -> String {
    [0, top / 2, top].map { value in
      let at = Self.number(y(value, top))
      return
        "<line class=\"grid\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" y1=\"\(at)\" y2=\"\(at)\" stroke=\"#dde3ea\"/>"
        + "<text class=\"axis\" x=\"\(Int(Self.left) - 6)\" y=\"\(Self.number(y(value, top) + 4))\" text-anchor=\"end\">\(HTMLText.escape(format(value)))</text>"
    }.joined()
  }

  private func columns(_ slot: Double, _ top: Double) -> String {
    let barWidth = max(1, slot * 0.78)
    var svg = ""
    for (index, label) in labels.enumerated() {
      let x = Self.left + Double(index) * slot + (slot - barWidth) / 2
      var base = 0.0
      svg += "<g class=\"period\" data-label=\"\(HTMLText.escape(label))\">"
      for part in series {
        let value = part.values[index] ?? 0
        guard value > 0 else { continue }
        svg +=
          "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y(base + value, top)))\" width=\"\(Self.number(barWidth))\" height=\"\(Self.number(value / top * Self.plotHeight))\" fill=\"\(part.color)\"><title>\(HTMLText.escape("\(label) \(part.name): \(format(value))"))</title></rect>"
        base += value
      }
      svg += "</g>"
    }
    return svg
  }

  private func line(_ slot: Double, _ top: Double) -> String {
    var svg = ""
    for part in series {
      var run: [String] = []
      func flush() {
        if run.count > 1 {
          svg +=
            "<polyline fill=\"none\" stroke=\"\(part.color)\" stroke-width=\"2\" points=\"\(run.joined(separator: " "))\"/>"
        }
        run = []
      }
      for (index, label) in labels.enumerated() {
        guard let value = part.values[index] else {
          flush()
          continue
        }
        let x = Self.number(Self.left + (Double(index) + 0.5) * slot)
        let at = Self.number(y(min(value, top), top))
        run.append("\(x),\(at)")
        svg +=
          "<circle class=\"point\" cx=\"\(x)\" cy=\"\(at)\" r=\"3\" fill=\"\(part.color)\"><title>\(HTMLText.escape("\(label) \(part.name): \(format(value))"))</title></circle>"
      }
      flush()
    }
    return svg
  }

  private func xLabels(_ slot: Double) -> String {
    let step = labelStep
    let baseline = Self.top + Self.plotHeight + 14
    return labels.enumerated().filter { $0.offset % step == 0 }.map { index, label in
      let x = Self.number(Self.left + (Double(index) + 0.5) * slot)
      return
        "<text class=\"x-label\" x=\"\(x)\" y=\"\(Self.number(baseline))\" text-anchor=\"end\" transform=\"rotate(-45 \(x) \(Self.number(baseline)))\">\(HTMLText.escape(label))</text>"
    }.joined()
  }

  private func legend(y: Double) -> String {
    var x = Self.left
    var svg = ""
    for part in series {
      svg +=
        "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y - 10))\" width=\"12\" height=\"12\" fill=\"\(part.color)\"/>"
      svg +=
        "<text class=\"legend\" x=\"\(Self.number(x + 16))\" y=\"\(Self.number(y))\">\(HTMLText.escape(part.name))</text>"
      x += 16 + SVGBarChart.width(of: part.name) + 18
    }
    return svg
  }

  private static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
