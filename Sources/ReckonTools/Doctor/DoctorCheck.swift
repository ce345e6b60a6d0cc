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
  /// What was found, on one line.
  public let detail: String

  /// A check's outcome; a detail of several lines is joined into one, so each check stays a line.
  public init(_ name: String, _ mark: Mark, _ detail: String) {
    self.name = name
    self.mark = mark
    self.detail = detail.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
      .filter { !$0.isEmpty }.joined(separator: " ")
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
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
