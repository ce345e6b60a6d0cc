/// One line of `reckon doctor`: what was checked, how it came out, and what was found, in a
/// sentence an operator can act on.
public struct DoctorCheck: Hashable, Sendable, Encodable {
  /// How a check came out.
  public enum Mark: String, Hashable, Sendable, Encodable {
    /// It passed.
    case ok
    /// It failed: Reckon would not work, or not safely, as configured.
    case fail
    /// It could not run or was not asked for; the detail says why.
    case skip

    /// The word its text line starts with: a failure stands out in capitals.
    public var word: String { self == .fail ? "FAIL" : rawValue }
  }

  /// The check's name, e.g. `app-store key` or `fact source app-db`.
  public let name: String
  /// How it came out.
  public let mark: Mark
  /// What was found, on one line: the first line of what the check said.
  public let detail: String
  /// The lines after the first, as they were: the source line and caret under a diagnostic,
  /// which only line up on lines of their own. Empty for most checks.
  public let excerpt: [String]

  /// A check's outcome; the detail's first line stays on the check's line, and any further
  /// lines go under it as they are.
  public init(_ name: String, _ mark: Mark, _ detail: String) {
    self.name = name
    self.mark = mark
    let lines = detail.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    self.detail = lines.first?.trimmingSpaces() ?? ""
    var excerpt = lines.dropFirst().map {
      String($0.reversed().drop(while: \.isWhitespace).reversed())
    }
    while excerpt.last?.isEmpty == true { excerpt.removeLast() }
    self.excerpt = excerpt
  }

  /// A check that passed.
  static func ok(_ name: String, _ detail: String) -> DoctorCheck { .init(name, .ok, detail) }
  /// A check that failed.
  static func fail(_ name: String, _ detail: String) -> DoctorCheck { .init(name, .fail, detail) }
  /// A check that did not run.
  static func skip(_ name: String, _ detail: String) -> DoctorCheck { .init(name, .skip, detail) }

  enum CodingKeys: String, CodingKey {
    case name = "check"
    case mark = "status"
    case detail
    case excerpt
  }

  /// `check`, `status` and `detail`, and `excerpt` (its lines) when there is one.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(mark, forKey: .mark)
    try container.encode(detail, forKey: .detail)
    if !excerpt.isEmpty { try container.encode(excerpt, forKey: .excerpt) }
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
