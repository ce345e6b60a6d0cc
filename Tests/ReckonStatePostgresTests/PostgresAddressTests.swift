import Foundation
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStatePostgres

/// A PostgreSQL state's address: libpq's URL, never with a password in it.
@Suite struct PostgresAddressTests {
  @Test(arguments: [
    "postgres://reckon:secret@db.example:5432/reckon",
    "postgresql://reckon@db.example/reckon?password=secret",
  ])
  func anAddressHoldingAPasswordIsRefusedWithoutShowingIt(_ url: String) {
    #expect {
      try PostgresAddress(url: url)
    } throws: { error in
      guard case StateError.cannotOpen(let shown, let message) = error else { return false }
      return !shown.contains("secret") && !message.contains("secret")
        && message.contains("PGPASSWORD") && message.contains("--password-file")
        && shown.contains("REDACTED")
    }
  }

  /// libpq refuses `PASSWORD` as an unknown parameter; the message quoting the address still
  /// hides its value.
  @Test(arguments: [
    "postgres://reckon@db.example/reckon?PASSWORD=secret",
    "postgres://reckon@db.example/reckon?sslmode=disable&Passwd=secret",
  ])
  func aPasswordMisspeltInTheQueryIsNotShownEither(_ url: String) {
    #expect {
      try PostgresAddress(url: url)
    } throws: { error in
      !"\(error)".contains("secret")
    }
  }

  @Test(arguments: ["/var/lib/reckon/state.sqlite", "mysql://reckon@db/reckon"])
  func anAddressThatIsNotPostgreSQLIsRefused(_ url: String) {
    #expect(!PostgresAddress.isAddress(url))
    #expect(throws: StateError.self) { try PostgresAddress(url: url) }
  }

  @Test func anAddressLibpqCannotParseIsRefusedWithItsReason() {
    #expect {
      try PostgresAddress(url: "postgres://reckon@db/reckon?nosuchoption=1")
    } throws: { error in
      "\(error)".contains("nosuchoption")
    }
  }

  @Test func aServerThatIsNotThereIsSaidPlainly() throws {
    // Port 1 on loopback: nothing listens there, and nothing leaves the machine.
    let address = try PostgresAddress(
      url: "postgres://reckon@127.0.0.1:1/reckon?connect_timeout=2")
    #expect {
      try PostgresStateStore(address: address, rules: .appStore)
    } throws: { error in
      guard case StateError.cannotOpen(let shown, let message) = error else { return false }
      return shown == address.url && message.contains("127.0.0.1")
    }
  }

  @Test func aPasswordFileIsReadAndItsPasswordNeverShown() throws {
    let path = TestScratch.folder.appendingPathComponent("pw-\(UUID().uuidString)").path
    try "s3cret-value\n".write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    let address = try PostgresAddress(url: "postgres://reckon@db/reckon", passwordFile: path)
    #expect(address.password == "s3cret-value")
    #expect(!address.description.contains("s3cret"))
    #expect(!"\(address)".contains("s3cret"))
    let missing = path + ".missing"
    #expect {
      try PostgresAddress(url: "postgres://reckon@db/reckon", passwordFile: missing)
    } throws: { error in
      "\(error)".contains("cannot read the password file \(missing)")
    }
  }

  /// The password is the file's first line whatever ends it; a file with none, or one any
  /// user can read, is refused naming the file.
  @Test(arguments: [
    ("s3cret\r\n", 0o600, "s3cret"), ("s3cret", 0o600, "s3cret"), ("\n", 0o600, "is empty"),
    ("", 0o600, "is empty"), ("s3cret\n", 0o644, "can be read by any user (mode 644)"),
  ])
  func aPasswordFileGivesItsFirstLineOrIsRefused(_ text: String, _ mode: Int, _ outcome: String)
    throws
  {
    let path = TestScratch.folder.appendingPathComponent("pw-\(UUID().uuidString)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    do {
      let address = try PostgresAddress(url: "postgres://reckon@db/reckon", passwordFile: path)
      #expect(address.password == outcome)
    } catch {
      #expect("\(error)".contains("the password file \(path) \(outcome)"), "\(error)")
    }
  }

  /// libpq's `sslmode` in the address is honoured: the test server has no TLS, so requiring it
  /// refuses the connection, where a dropped option would have connected in the clear.
  @Test(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
  func sslmodeInTheAddressIsHonoured() throws {
    let plain = try TestPostgres.freshDatabase()
    _ = try PostgresStateStore(address: PostgresAddress(url: plain), rules: .appStore)
    let required = try PostgresAddress(url: plain + "?sslmode=require")
    #expect {
      try PostgresStateStore(address: required, rules: .appStore)
    } throws: { error in
      "\(error)".contains("SSL")
    }
  }
}
