/// The `--format` option of every command that prints a result.
enum OutputFormat: String, Sendable {
  case text
  case json
  case csv

  /// The format asked for with `--format`, or nil when none was; one the command does not print
  /// (not among `allowed`) is a usage mistake naming the ones it does.
  static func option(_ arguments: inout Arguments, allowed: [OutputFormat] = [.text, .json])
    throws(UsageError) -> OutputFormat?
  {
    guard let given = arguments.option("format") else { return nil }
    guard let format = OutputFormat(rawValue: given), allowed.contains(format) else {
      let names = allowed.map(\.rawValue)
      let list =
        names.count > 1
        ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        : names.joined()
      throw UsageError("--format must be \(list)")
    }
    return format
  }
}
