import Foundation

/// What `reckon doctor` found: one check a line, in the order they ran, and whether any failed.
public struct DoctorReport: Sendable {
  /// Every check, in the order it ran.
  public let checks: [DoctorCheck]

  /// A report of `checks`.
  public init(_ checks: [DoctorCheck]) {
    self.checks = checks
  }

  /// Whether no check failed (skipped ones do not count against it).
  public var passed: Bool { !checks.contains { $0.mark == .fail } }

  /// How many checks came out `mark`.
  public func count(_ mark: DoctorCheck.Mark) -> Int { checks.filter { $0.mark == mark }.count }

  /// One line per check, `MARK  NAME  DETAIL` in aligned columns, with any excerpt under its
  /// detail, then the counts.
  public var text: String {
    let width = (checks.map(\.name.count).max() ?? 0) + 2
    let indent = String(repeating: " ", count: 6 + width)
    var lines = checks.flatMap { check in
      [
        check.mark.word.padding(toLength: 6, withPad: " ", startingAt: 0)
          + check.name.padding(toLength: width, withPad: " ", startingAt: 0) + check.detail
      ] + check.excerpt.map { $0.isEmpty ? "" : indent + $0 }
    }
    lines.append(
      "\(count(.ok)) ok, \(count(.fail)) failed, \(count(.skip)) skipped: "
        + (passed
          ? "nothing stands in the way of going live" : "fix what failed, then run it again"))
    return lines.joined(separator: "\n")
  }

  /// The report as pretty, key-sorted JSON: every check with its status, and the counts.
  public func jsonText() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let document = Document(
      checks: checks, ok: count(.ok), failed: count(.fail), skipped: count(.skip), passed: passed)
    return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// What `--format json` writes.
  private struct Document: Encodable {
    let checks: [DoctorCheck]
    let ok: Int
    let failed: Int
    let skipped: Int
    let passed: Bool
  }
}
