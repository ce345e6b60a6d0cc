import ReckonEngine
import ReckonStateSQLite

/// `reckon version` (or `reckon --version`): the release and the state database schema.
enum VersionCommand: Command {
  static let name = "version"
  static let summary = "Print Reckon's version and the state database schema it uses"
  static let options: [CommandOption] = [
    CommandOption("format", value: "FORMAT", help: "text (default) or json")
  ]
  static let help = """
    Usage: reckon version [--format json]
           reckon --version

    Prints Reckon's version, the state database schema version it writes (opening an older
    database to write upgrades it to that version) and the oldest one it reads as it is.
    A database written by a newer Reckon is refused.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let format = try OutputFormat.option(&arguments) ?? .text
    try arguments.rejectUnknown()
    // The SQLite schema, so an operator can tell whether two builds can share a state file.
    let schema = SQLiteStateStore.newestSchema
    if format == .json {
      console.out(
        #"{"release":"\#(ReckonVersion.release)","stateSchema":\#(schema),"oldestReadableStateSchema":\#(SQLiteStateStore.oldestReadableSchema)}"#
      )
      return 0
    }
    console.out(
      """
      reckon \(ReckonVersion.release)
      state database schema \(schema) (reads \(SQLiteStateStore.oldestReadableSchema) to \(schema))
      """)
    return 0
  }
}
