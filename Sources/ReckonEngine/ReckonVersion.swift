import ReckonStateSQLite

/// What `reckon version` reports: the release, and the state database schema this build writes
/// and reads, so an operator can tell whether two builds can share a database.
public enum ReckonVersion {
  /// The release, in semantic versioning.
  public static let release = "0.1.0"

  /// The schema version this build writes; opening an older database to write moves it here.
  public static var stateSchema: Int { SQLiteStateStore.newestSchema }

  /// The oldest schema version this build reads without changing the file (dry-runs, reports,
  /// `queue list`); a newer one than `stateSchema` is refused.
  public static var oldestReadableStateSchema: Int { SQLiteStateStore.oldestReadableSchema }
}
