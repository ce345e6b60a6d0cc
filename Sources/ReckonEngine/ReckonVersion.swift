/// What `reckon version` reports as the release. The state's schema versions come from its
/// backend (ReckonStateSQLite's `SQLiteStateStore.newestSchema`).
public enum ReckonVersion {
  /// The release, in semantic versioning.
  public static let release = "0.3.1"
}
