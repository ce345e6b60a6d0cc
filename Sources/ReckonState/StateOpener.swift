/// Opens the state a configuration names. Each backend target supplies one (ReckonStateSQLite's
/// `SQLiteStateOpener`), and whoever composes the service picks it, so the engine never names a
/// backend.
public protocol StateOpener: Sendable {
  /// Opens the state at `location` (a file's path, or a database's address), creating or
  /// migrating it, with each commit pushed to disk as `durability` says.
  func open(location: String, durability: StateDurability) throws(StateError) -> any StateStore
}
