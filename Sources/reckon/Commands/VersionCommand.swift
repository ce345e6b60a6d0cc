import ReckonEngine

/// `reckon version` (or `reckon --version`): the release and the state database schema.
enum VersionCommand: Command {
  static let name = "version"
  static let summary = "Print Reckon's version and the state database schema it uses"
  static let options: [CommandOption] = []
  static let help = """
    Usage: reckon version
           reckon --version

    Prints Reckon's version, the state database schema version it writes (opening an older
    database to write upgrades it to that version) and the oldest one it reads as it is.
    A database written by a newer Reckon is refused.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    try arguments.rejectUnknown()
    let schema = ReckonVersion.stateSchema
    console.out(
      """
      reckon \(ReckonVersion.release)
      state database schema \(schema) (reads \(ReckonVersion.oldestReadableStateSchema) to \(schema))
      """)
    return 0
  }
}
