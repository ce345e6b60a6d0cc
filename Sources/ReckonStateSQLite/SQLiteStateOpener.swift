import ReckonState

/// Opens the embedded SQLite state at a file's path, checkpointing it in the background, as a
/// long-running service wants; its sender lease is the lock file beside it.
public struct SQLiteStateOpener: StateOpener {
  /// The opener.
  public init() {}

  /// Refuses a path whose folder does not exist, or a file another program made.
  public func check(location: String) throws(StateError) {
    try SQLiteStateStore.checkFolder(of: location)
    try SQLiteStateStore.checkIsOurs(path: location)
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
    try SQLiteStateStore(
      path: location, rules: rules, durability: durability,
      backgroundCheckpoints: access != .readOnly, access: access)
  }
}
