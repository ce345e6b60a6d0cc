import ReckonState

/// Opens the embedded SQLite state at a file's path, checkpointing it in the background, as a
/// long-running service wants; its sender lease is the lock file beside it.
public struct SQLiteStateOpener: StateOpener {
  /// The opener.
  public init() {}

  /// Refuses a path whose folder does not exist, a file another program made, or one whose
  /// state was moved to a database (a service on it would send again what the database sends).
  public func check(location: String) throws(StateError) {
    try Self.refuseDatabaseURL(location)
    try SQLiteStateStore.checkFolder(of: location)
    try SQLiteStateStore.checkIsOurs(path: location)
    try SQLiteStateStore.checkNotMoved(path: location)
  }

  /// Takes the lock file beside the state file at `location`.
  public func takeSenderLease(location: String) throws(SenderLockError) -> any SenderLease {
    try SenderLock(statePath: location)
  }

  /// Opens the SQLite state file at `location` as `access` allows; one that writes checkpoints
  /// in the background.
  public func open(
    location: String, durability: StateDurability, rules: ReplyRules, access: StateAccess
  ) throws(StateError) -> any StateStore {
    try Self.refuseDatabaseURL(location)
    return try SQLiteStateStore(
      path: location, rules: rules, durability: durability,
      backgroundCheckpoints: access != .readOnly, access: access)
  }

  /// Refuses a PostgreSQL URL, which would otherwise be taken for a file's path in the current
  /// folder and refused as a folder that does not exist.
  private static func refuseDatabaseURL(_ location: String) throws(StateError) {
    guard location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") else { return }
    throw .cannotOpen(
      path: location,
      message: "it is a PostgreSQL URL: open it with ReckonStatePostgres's PostgresStateOpener("
        + "passwordFile: configuration.statePasswordFile), not SQLiteStateOpener")
  }
}
