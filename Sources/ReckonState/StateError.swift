import Foundation

/// A state backend's failure: which store, operation or entry, and the backend's own message.
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The state could not be opened or created (a file's path, or a database's address).
  case cannotOpen(path: String, message: String)
  /// The database server the state is on cannot be reached now (it is down, restarting, or the
  /// network is): nothing was written, and the same call may succeed once it is back.
  case unreachable(path: String, message: String)
  /// An operation on the state failed (for a database backend, a statement).
  case statementFailed(operation: String, message: String)
  /// A uniqueness or foreign-key rule refused a write.
  case constraintViolated(operation: String, message: String)
  /// A command that needs an existing state database found no file.
  case noSuchFile(path: String)
  /// A command that needs an existing state found a database server's database without any of
  /// Reckon's tables: nothing made it a state yet.
  case noStateYet(path: String)
  /// The file is not SQLite, or a SQLite database Reckon did not make; nothing was written to it.
  case notAStateDatabase(path: String)
  /// A read-only command found a database an older Reckon wrote, which it would have to migrate.
  case olderSchema(path: String, found: Int, needed: Int)
  /// The file was written by a newer Reckon whose schema this build does not know.
  case newerSchema(path: String, found: Int, known: Int)
  /// No row has this id.
  case notFound(what: String, id: Int64)
  /// An operator command does not apply to the entry in its current state.
  case notAllowed(entry: Int64, reason: String)
  /// A stored body breaks Apple's rules, so it was not stored or edited.
  case invalidBody(String)
  /// Another writer (the sender, or an operator in another process) changed the entry after it
  /// was read; nothing was written.
  case changedConcurrently(entry: Int64)
  /// A prune was asked to remove notifications received after `latest`, which Apple may still
  /// send again (`StateRetention.shortest`).
  case retentionTooShort(cutoff: Date, latest: Date)
  /// A stored row cannot be read back (a packed notification, a compressed explanation): the
  /// file or database was damaged, or changed by something other than Reckon.
  case unreadableRow(what: String, reason: String)
  /// `reckon state migrate` moved this SQLite file's state to the database `to` at `at`: a
  /// service writing to the file again would answer and send what the database also holds.
  case moved(path: String, to: String, at: Date)
  /// A prune failed part-way, after removing `removed`; what is left is whole.
  indirect case pruneStopped(removed: PruneCounts, cause: StateError)

  /// One sentence naming what failed and where.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let message): "cannot open the state database \(path): \(message)"
    case .unreachable(let path, let message):
      "the state database \(path) cannot be reached: \(message)"
    case .statementFailed(let operation, let message):
      "state database statement failed (\(operation)): \(message)"
    case .constraintViolated(let operation, let message):
      "state database refused a write (\(operation)): \(message)"
    case .noSuchFile(let path): "the state database \(path) does not exist: no such file"
    case .noStateYet(let path):
      "the database \(path) holds no Reckon state yet: reckon serve makes it at its first start"
    case .notAStateDatabase(let path): "\(path) is not a Reckon state database"
    case .olderSchema(let path, let found, let needed):
      "the state database \(path) has schema version \(found) from an older Reckon; this one reads version \(needed). reckon serve or reckon send upgrades it"
    case .newerSchema(let path, let found, let known):
      "the state database \(path) has schema version \(found), but this Reckon knows only up to \(known); upgrade Reckon"
    case .moved(let path, let to, let at):
      "the state in \(path) was moved to \(to) at \(at.formatted(.iso8601)) (reckon state "
        + "migrate): configure state.url to use it there; a service on the file would send again "
        + "what the database sends. To use the file anyway: sqlite3 \(path) 'DROP TABLE state_moved'"
    case .notFound(let what, let id): "no \(what) with id \(id)"
    case .notAllowed(let entry, let reason): "outbox entry \(entry): \(reason)"
    case .invalidBody(let reason): "the body was refused: \(reason)"
    case .changedConcurrently(let entry):
      "outbox entry \(entry) changed while this change was being made; nothing was written, try again"
    case .retentionTooShort(let cutoff, let latest):
      "cannot prune notifications received before \(cutoff.formatted(.iso8601)): Apple sends a notification it got no 200 for again for about six and a half days, and a pruned one would then be decided and answered again; give a cutoff at or before \(latest.formatted(.iso8601))"
    case .unreadableRow(let what, let reason):
      "\(what) in the state database cannot be read: \(reason)"
    case .pruneStopped(let removed, let cause):
      "pruning stopped after removing \(removed.described.joined(separator: ", ")): \(cause.description); what is left is whole, and pruning again goes on from there"
    }
  }
}

extension StateError {
  /// Whether the state's server could not be reached: a failure of the moment, for which a
  /// caller answers "unavailable" rather than "failed".
  public var isUnreachable: Bool {
    if case .unreachable = self { true } else { false }
  }

  /// `notAStateDatabase(path)` when SQLite found the file is not a database at all; otherwise
  /// the error itself (a locked or unreadable database says so).
  package func ifNotADatabase(path: String) -> StateError {
    guard case .statementFailed(_, let message) = self, message.contains("not a database") else {
      return self
    }
    return .notAStateDatabase(path: path)
  }
}
