import ReckonState

/// Opens the PostgreSQL state at a `postgres://` address, which several instances share.
public struct PostgresStateOpener: StateOpener {
  /// The file holding the database password, if the configuration names one.
  public let passwordFile: String?

  /// The opener, reading the password from `passwordFile` when given (else libpq's own
  /// `PGPASSWORD` or password file).
  public init(passwordFile: String? = nil) {
    self.passwordFile = passwordFile
  }

  /// Refuses an address that is not a PostgreSQL URL or holds a password.
  public func check(location: String) throws(StateError) {
    _ = try PostgresAddress(url: location, passwordFile: passwordFile)
  }

  /// A sender's lease on the database at `location`, which every instance takes at once.
  public func takeSenderLease(location: String) throws(SenderLockError) -> any SenderLease {
    do {
      return PostgresSenderLease(
        address: try PostgresAddress(url: location, passwordFile: passwordFile))
    } catch {
      throw .cannotOpen(path: location, reason: error.description)
    }
  }

  /// Connects to the database at `location`, creating or migrating Reckon's schema as `access`
  /// allows.
  public func open(
    location: String, durability: StateDurability, rules: ReplyRules, access: StateAccess
  ) throws(StateError) -> any StateStore {
    try PostgresStateStore(
      address: PostgresAddress(url: location, passwordFile: passwordFile), rules: rules,
      durability: durability, access: access)
  }
}
