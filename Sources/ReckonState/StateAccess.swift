/// What opening a state may do to it: create and migrate it, only migrate one that exists, or
/// only read one.
public enum StateAccess: Sendable {
  /// Create the state if it is missing and migrate it to the newest schema (the service).
  case create
  /// The state must already be a Reckon state; it is migrated forward, never created (operator
  /// commands that write).
  case existing
  /// The state must already be a Reckon state this build reads; it is opened read-only and
  /// nothing is created, migrated or written (dry-runs, reports, listings).
  case readOnly
}
