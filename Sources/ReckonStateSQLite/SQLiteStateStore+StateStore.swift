import ReckonState

/// The embedded backend passes the same suite as every other.
extension SQLiteStateStore: StateStore {}
