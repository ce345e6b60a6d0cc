import ReckonState

/// Opens the embedded SQLite state at a file's path, checkpointing it in the background, as a
/// long-running service wants.
public struct SQLiteStateOpener: StateOpener {
  /// The opener.
  public init() {}

  /// Opens (creating or migrating) the SQLite state file at `location`.
  public func open(location: String, durability: StateDurability) throws(StateError)
    -> any StateStore
  {
    try SQLiteStateStore(path: location, durability: durability, backgroundCheckpoints: true)
  }
}
