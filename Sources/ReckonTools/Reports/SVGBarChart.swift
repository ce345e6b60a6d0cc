import ReckonEngine

/// A horizontal bar chart as inline SVG: one bar per label, the count at its end. No scripts,
/// no external resources, so a report stays one self-contained file.
struct SVGBarChart {
  let title: String
  let bars: [(label: String, value: Int)]
  var secondary: [Int]? = nil
  var color = "#3b6ea5"
  var secondaryColor = "#d08a2c"

  /// The widest label column, in pixels; a label wider than this is cut with "…", its whole
  /// text in a tooltip (`<title>`).
  static let widestLabel = 440.0

  /// The label column's width: enough for the widest label shown, at least 120 pixels.
  var labelWidth: Int {
    let widest = bars.map { min(Self.width(of: $0.label), Self.widestLabel) }.max() ?? 0
    return max(120, Int(widest.rounded(.up)) + 16)
  }

  /// A generous width of `text` in a 13px label, in pixels: each character counted at least as
  /// wide as in DejaVu Sans, the widest of the common sans-serif fonts a browser picks for
  /// system-ui, so a label is never wider than the room made for it.
  static func width(of text: some StringProtocol) -> Double {
    text.reduce(0) { $0 + width(of: $1) }
  }

  private static func width(of character: Character) -> Double {
    switch character {
    case "M", "W", "m", "w", "@", "%": 13.5
    case " ", ".", ",", ":", ";", "'", "|", "!", "i", "j", "l", "I", "f", "t", "r", "(", ")", "-":
      6
    case _ where character.isUppercase || character.isNumber: 10.5
    case _ where character.isASCII: 8.5
    // Other scripts and symbols, wide ones included.
    default: 14
    }
  }

  func render() -> String {
    let rowHeight = secondary == nil ? 24 : 34
    let labelWidth = labelWidth
    let barWidth = 420
    let height = bars.count * rowHeight + 36
    let maximum = max(1, (bars.map(\.value) + (secondary ?? [])).max() ?? 1)
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\" viewBox=\"0 0 \(labelWidth + barWidth + 90) \(height)\" width=\"\(labelWidth + barWidth + 90)\" height=\"\(height)\">"
    svg += "<text x=\"0\" y=\"18\" class=\"chart-title\">\(HTMLText.escape(title))</text>"
    for (index, bar) in bars.enumerated() {
      let y = 30 + index * rowHeight
      let width = max(1, bar.value * barWidth / maximum)
      svg +=
        "<text x=\"\(labelWidth - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(Self.label(bar.label))</text>"
      svg +=
        "<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(width)\" height=\"16\" fill=\"\(color)\"/>"
      svg +=
        "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 15)\">\(DryRunText.n(bar.value))</text>"
      if let secondary {
        let other = secondary[index]
        let otherWidth = max(1, other * barWidth / maximum)
        svg +=
          "<rect x=\"\(labelWidth)\" y=\"\(y + 19)\" width=\"\(otherWidth)\" height=\"10\" fill=\"\(secondaryColor)\"/>"
        svg +=
          "<text x=\"\(labelWidth + otherWidth + 6)\" y=\"\(y + 28)\" class=\"small\">\(DryRunText.n(other))</text>"
      }
    }
    return svg + "</svg>"
  }

  /// A label's text, escaped; when wider than `widestLabel`, cut to fit with "…" and the whole
  /// text as a tooltip.
  static func label(_ text: String) -> String {
    guard width(of: text) > widestLabel else { return HTMLText.escape(text) }
    var shown = Substring(text)
    while !shown.isEmpty, width(of: shown) + width(of: "…") > widestLabel { shown.removeLast() }
    return "<title>\(HTMLText.escape(text))</title>" + HTMLText.escape(shown + "…")
  }
}

/// Escaping for text placed in HTML and SVG.
enum HTMLText {
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }
}
