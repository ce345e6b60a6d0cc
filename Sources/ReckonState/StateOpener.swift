/// Opens the state a configuration names. Each backend target supplies one (ReckonStateSQLite's
/// `SQLiteStateOpener`), and whoever composes the service picks it, so the engine and the
/// server never name a backend.
public protocol StateOpener: Sendable {
  /// Refuses a `location` the backend cannot use (for a file, a folder that does not exist or
  /// another program's file), before anything is opened or left beside it.
  func check(location: String) throws(StateError)

  /// Takes the sender's lease for the state at `location` without waiting; throws when another
  /// sender holds it. Taken before the state opens, so a second server refuses to start rather
  /// than run without a sender.
  func takeSenderLease(location: String) throws(SenderLockError) -> any SenderLease

  /// Opens the state at `location` (a file's path, or a database's address) as `access` allows,
  /// with each commit pushed to disk as `durability` says, recording requests by the store's
  /// `rules`.
  func open(
    location: String, durability: StateDurability, rules: ReplyRules, access: StateAccess
  ) throws(StateError) -> any StateStore
}

extension StateOpener {
  /// Opens the state at `location`, creating or migrating it.
  public func open(location: String, durability: StateDurability, rules: ReplyRules)
    throws(StateError) -> any StateStore
  {
    try open(location: location, durability: durability, rules: rules, access: .create)
  }
}
