import ReckonEngine
import ReckonStatePostgres
import ReckonStateSQLite

/// `reckon version` (or `reckon --version`): the release and the state schemas it uses.
enum VersionCommand: Command {
  static let name = "version"
  static let summary = "Print Reckon's version and the state database schemas it uses"
  static let options: [CommandOption] = [
    CommandOption("format", value: "text|json", help: "text (default) or json")
  ]
  static let help = """
    Usage: reckon version [--format text|json]
           reckon --version

    Prints Reckon's version and, for each state backend (an SQLite file, a PostgreSQL
    database), the schema version it writes (opening an older database to write upgrades it
    to that version) and the oldest one it reads as it is. A database written by a newer
    Reckon is refused.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let format = try OutputFormat.option(&arguments) ?? .text
    try arguments.rejectUnknown()
    // So an operator can tell whether two builds can share a state.
    let sqlite = (SQLiteStateStore.newestSchema, SQLiteStateStore.oldestReadableSchema)
    // A PostgreSQL state is read without migrating only at the newest version.
    let postgres = PostgresStateStore.newestSchema
    if format == .json {
      console.out(
        #"{"release":"\#(ReckonVersion.release)","stateSchema":\#(sqlite.0),"oldestReadableStateSchema":\#(sqlite.1),"postgresStateSchema":\#(postgres),"oldestReadablePostgresStateSchema":\#(postgres)}"#
      )
      return 0
    }
    console.out(
      """
      reckon \(ReckonVersion.release)
      state database schema \(sqlite.0) (reads \(sqlite.1) to \(sqlite.0))
      PostgreSQL state schema \(postgres) (reads \(postgres))
      """)
    return 0
  }
}
