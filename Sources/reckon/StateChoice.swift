import Foundation
import ReckonEngine
import ReckonState
import ReckonStatePostgres
import ReckonStateSQLite

/// The state a command works on and the backend that opens it: PostgreSQL for a `postgres://`
/// address, SQLite for a file's path. The one place the CLI names a backend.
struct StateChoice {
  /// An SQLite file's path or a PostgreSQL address.
  let location: String
  /// The file the PostgreSQL password is read from, if one is named.
  let passwordFile: String?
  /// Where the command was given it, for messages: `--state`, or the configuration's key.
  let givenBy: String

  /// The state `configuration` names.
  init(_ configuration: ReckonConfiguration) {
    self.init(
      location: configuration.stateLocation, passwordFile: configuration.statePasswordFile,
      givenBy: PostgresAddress.isAddress(configuration.stateLocation) ? "state.url" : "state.path")
  }

  init(location: String, passwordFile: String? = nil, givenBy: String = "--state") {
    self.location = location
    self.passwordFile = passwordFile
    self.givenBy = givenBy
  }

  /// The state `configuration` names when there is one to read: a server, or a file that
  /// holds something; nil when its file has not been made yet, or is empty (made ahead of the
  /// service, which makes its tables at its first start).
  static func existing(_ configuration: ReckonConfiguration) -> StateChoice? {
    let configured = StateChoice(configuration)
    guard !configured.isDatabaseServer else { return configured }
    // The file a link in the path leads to: a link's own size says nothing of the state.
    let file = URL(fileURLWithPath: configured.location).resolvingSymlinksInPath().path
    let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size]
    guard let size = size as? Int, size > 0 else { return nil }
    return configured
  }

  /// Whether it is a database server's address rather than a file.
  var isDatabaseServer: Bool { PostgresAddress.isAddress(location) }

  /// The backend's opener.
  var opener: any StateOpener {
    isDatabaseServer
      ? PostgresStateOpener(passwordFile: passwordFile) : SQLiteStateOpener()
  }

  /// Opens the state as `access` allows, recording requests by the App Store's rules.
  func open(access: StateAccess, durability: StateDurability = .normal) throws(StateError)
    -> any StateStore
  {
    try opener.open(location: location, durability: durability, rules: .stores, access: access)
  }

  /// A writer's share of an SQLite state's move lock, to hold while it writes, so a state
  /// migrate never copies the file while this command changes it; nil for a database server.
  /// Another program's file is refused first, so no lock file is left beside it, and so is a
  /// file whose state was moved to a database.
  func holdAgainstMove() throws -> MoveLock? {
    guard !isDatabaseServer else { return nil }
    try SQLiteStateStore.checkIsOurs(path: location)
    let held = try MoveLock.forService(statePath: location)
    // Under the hold, so a move finishing now is seen.
    do { try SQLiteStateStore.checkNotMoved(path: location) } catch {
      held.release()
      throw error
    }
    return held
  }

  /// For messages: the state's location, saying what it is.
  var description: String {
    isDatabaseServer ? "the state database at \(location)" : "the state database \(location)"
  }
}
