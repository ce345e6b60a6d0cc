/// How hard a backend pushes each commit to disk before it returns.
public enum StateDurability: String, Sendable {
  /// A commit survives a power loss, at one flush to disk per commit (SQLite's
  /// `synchronous=FULL`).
  case full = "FULL"
  /// A commit survives a process crash and the state is never corrupted; a power loss may undo
  /// the last commits (SQLite's `synchronous=NORMAL` with WAL, the default).
  case normal = "NORMAL"
}
