import Foundation
import ReckonState
import ReckonStatePostgres
import Testing

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
        && message.contains("PGPASSWORD")
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
}
