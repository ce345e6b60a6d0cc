import ReckonPolicy

/// Reads values written in tests files: everything `ValueParser` reads, plus `N UNIT ago` for
/// timestamps (counted back from the test's `now`) and quoted times and text.
enum TestValues {
  /// Why a value in a tests file could not be read.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static func parse(_ written: TestValue, as type: ValueType, now: Value?) throws(Failure) -> Value
  {
    if type == .timestamp, !written.isQuoted, written.text.hasSuffix(" ago") {
      let duration = String(written.text.dropLast(4))
      guard case .duration(let seconds)? = try? ValueParser.parse(duration, as: .duration),
        case .timestamp(let reference)? = now
      else {
        throw Failure(
          description:
            "'\(written.text)' is not a time: write, e.g., 3 days ago or \"2026-01-15T12:00:00Z\"")
      }
      return .timestamp(reference - seconds)
    }
    if type == .text, !written.isQuoted {
      throw Failure(description: "write text between double quotes, as in \"\(written.text)\"")
    }
    do {
      return try ValueParser.parse(written.text, as: type)
    } catch {
      throw Failure(description: error.description)
    }
  }
}
