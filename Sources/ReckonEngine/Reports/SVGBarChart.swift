/// A horizontal bar chart as inline SVG: one bar per label, the count at its end. No scripts,
/// no external resources, so a report stays one self-contained file.
struct SVGBarChart {
  let title: String
  let bars: [(label: String, value: Int)]
  var secondary: [Int]? = nil
  var color = "#3b6ea5"
  var secondaryColor = "#d08a2c"

  func render() -> String {
    let rowHeight = secondary == nil ? 24 : 34
    let labelWidth = 260
    let barWidth = 420
    let height = bars.count * rowHeight + 36
    let maximum = max(1, (bars.map(\.value) + (secondary ?? [])).max() ?? 1)
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\" width=\"\(labelWidth + barWidth + 90)\" height=\"\(height)\">"
    svg += "<text x=\"0\" y=\"18\" class=\"chart-title\">\(HTMLText.escape(title))</text>"
    for (index, bar) in bars.enumerated() {
      let y = 30 + index * rowHeight
      let width = max(1, bar.value * barWidth / maximum)
      svg +=
        "<text x=\"\(labelWidth - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(HTMLText.escape(bar.label))</text>"
      svg +=
        "<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(width)\" height=\"16\" fill=\"\(color)\"/>"
      svg += "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 15)\">\(bar.value)</text>"
      if let secondary {
        let other = secondary[index]
        let otherWidth = max(1, other * barWidth / maximum)
        svg +=
          "<rect x=\"\(labelWidth)\" y=\"\(y + 19)\" width=\"\(otherWidth)\" height=\"10\" fill=\"\(secondaryColor)\"/>"
        svg +=
          "<text x=\"\(labelWidth + otherWidth + 6)\" y=\"\(y + 28)\" class=\"small\">\(other)</text>"
      }
    }
    return svg + "</svg>"
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
