import Foundation
import ReckonEngine
import ReckonState
import ReckonStatePostgres
import ReckonStateSQLite
import ReckonTools
import Synchronization

/// `reckon state migrate`: moves an installation's state from its SQLite file to a PostgreSQL
/// database, for running several instances on one state.
enum StateCommand: Command {
  static let name = "state"
  static let subcommands = ["migrate"]
  static let summary = "Move the state from an SQLite file to a PostgreSQL database"
  static let requiresArguments = true
  static let options: [CommandOption] = [
    CommandOption("from", value: "reckon-state.sqlite", help: "the SQLite state file to move"),
    CommandOption(
      "to", value: "postgres://user@host:port/db",
      help: ["the PostgreSQL database to move it to (its schema is made or migrated", "first)"]),
    CommandOption(
      "password-file", value: "FILE",
      help: "the database password's file (else PGPASSWORD or ~/.pgpass)"),
    CommandOption("format", value: "text|json"),
  ]
  static let help = """
    Usage: reckon state migrate --from reckon-state.sqlite --to postgres://user@host:port/db
                                [--password-file FILE] [--format text|json]

    Moves the whole history of an SQLite state to a PostgreSQL database: requests, decisions
    (with their facts and explanations), the outbox with every delivery attempt, Apple's
    outcomes, the pauses and holds in force, and the last policy that went live for each app.
    Every row keeps its id, so the outbox entry numbers an operator knows stay the same. Rows
    the database holds already are skipped: a move that stopped part-way is finished by running
    it again, and running it twice changes nothing. A row the database holds under one of the
    file's ids must be the file's: a database a service already recorded into is refused. At
    the end it checks that the database holds every row of each table the file holds, and
    prints the counts.

    \(CommandOption.table(options))

    Stop reckon serve and reckon send on the file first (it refuses while one holds the file's
    sender or move lock, and they refuse to start during the move), then point state.url at
    the database and start the instances. A file an older Reckon wrote is upgraded first, as
    reckon prune does. Once moved, the file is marked so: its held and pending replies are the
    database's to send, and serve, send and the commands that change a state refuse the file
    (reading it, as report and queue list do, still works).
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    guard arguments.positionals.first == "migrate" else {
      throw UsageError(
        "unknown state command '\(arguments.positionals.first ?? "")'; the state commands are: migrate"
      )
    }
    guard let from = arguments.option("from") else {
      throw UsageError("missing --from reckon-state.sqlite (the SQLite state file to move)")
    }
    guard let to = arguments.option("to") else {
      throw UsageError("missing --to postgres://user@host:port/db (the database to move it to)")
    }
    let passwordFile = arguments.option("password-file")
    let format = try OutputFormat.option(&arguments) ?? .text
    try arguments.rejectUnknown(positionals: 1)
    guard PostgresAddress.isAddress(to) else {
      throw UsageError("--to takes a postgres:// address, not \(to)")
    }
    guard !PostgresAddress.isAddress(from) else {
      throw UsageError(
        "--from takes the SQLite state file to move; \(from) is a PostgreSQL database (copy one "
          + "database to another with pg_dump)")
    }
    // Before the sender lock, whose file would otherwise be left beside a path that is no state.
    guard FileManager.default.fileExists(atPath: from) else {
      throw StateError.noSuchFile(path: from)
    }
    try SQLiteStateStore.checkIsOurs(path: from)
    let address = try PostgresAddress(url: to, passwordFile: passwordFile)
    // A service still sending from the file would go on changing what is being moved.
    let lock: SenderLock
    do throws(SenderLockError) { lock = try SenderLock(statePath: from) } catch {
      console.error("reckon state migrate: \(error); stop reckon serve and reckon send first")
      return 1
    }
    defer { lock.release() }
    // A service that records notifications but does not send holds no sender lock: a
    // notification it answered 200 during the move would be left in the file.
    let moving: MoveLock
    do throws(MoveLock.Refusal) { moving = try MoveLock.forMove(statePath: from) } catch {
      console.error("reckon state migrate: \(error)")
      return 1
    }
    defer { moving.release() }
    let source = try SQLiteStateStore(path: from, rules: .stores, access: .existing)
    let target = try PostgresStateStore(address: address, rules: .stores)
    let migration = StateMigration(from: source, to: target)
    let total = try migration.totalRows()
    let moved = Atomic(0)
    let bar = ProgressBar(done: { moved.load(ordering: .relaxed) }, total: { total })
    let counts: [StateMigration.TableCount]
    do throws(StateMigration.Failure) {
      counts = try migration.run { moved.store($0, ordering: .relaxed) }
    } catch {
      bar?.finish()
      console.error("reckon state migrate: \(error)")
      return 1
    }
    bar?.finish()
    // Its held and pending replies are the database's to send now: a service started on the
    // file again would send them a second time.
    try source.markMoved(to: address.description, at: Date())
    console.out(format == .json ? json(counts) : text(counts, from: from, to: address))
    return 0
  }

  private static func text(
    _ counts: [StateMigration.TableCount], from: String, to address: PostgresAddress
  ) -> String {
    var lines = ["moved \(from) to \(address):"]
    for count in counts {
      lines.append(
        "  \(count.table.rawValue): \(count.source) in the file, \(count.written) written now, "
          + "\(count.target) in the database")
    }
    lines.append("every row of the file is in the database")
    lines.append(
      "the file is marked as moved: serve, send and the commands that change a state refuse it")
    return lines.joined(separator: "\n")
  }

  private static func json(_ counts: [StateMigration.TableCount]) -> String {
    let tables = counts.map {
      #""\#($0.table.rawValue)":{"source":\#($0.source),"written":\#($0.written),"target":\#($0.target)}"#
    }
    return #"{"tables":{\#(tables.joined(separator: ","))},"complete":true}"#
  }
}
