import Foundation
import ReckonAppStore
import ReckonServer
import ReckonStandIn
import Testing

/// What `reckon serve` logs while it answers good and forged notifications and sends a reply:
/// never a JWS or JWT (every one starts `eyJ`, base64url of `{"`), the bearer token or the key.
@Suite struct LogSecrecyTests {
  /// A body whose JWS header says `alg` none: a forgery that carries payload material.
  static func algorithmNone(_ fixture: ServerFixture) throws -> Data {
    let payload = try JSONSerialization.data(
      withJSONObject: ServerFixture.notification().notificationPayload("x"))
    let jws = try fixture.authority.sign(payload: payload, algorithm: "none")
    return Data(#"{"signedPayload":"\#(jws)"}"#.utf8)
  }

  @Test func logsHoldNoSignedPayloadTokenOrKeyAfterARepliedAndRefusedNotifications() async throws {
    let fixture = try ServerFixture()
    let good = try fixture.body()
    #expect(try await fixture.post(good).0 == 200)
    let sent = await ServerFixture.eventually { fixture.standIn.requests.count == 1 }
    var other = ServerFixture.notification()
    other.bundleId = "com.example.unknown"
    let refused = [
      try ServerFixture.notification().body(signedBy: LocalCertificateAuthority(name: "Forger")),
      try fixture.body(other), try Self.algorithmNone(fixture), Data("not json".utf8),
    ]
    for body in refused { #expect(try await fixture.post(body).0 >= 400) }
    await fixture.stop()
    #expect(sent)

    let logs = fixture.logLines.all.joined()
    #expect(logs.contains(#""event":"answered""#))
    #expect(logs.contains("not trusted"), "the refusal reason is logged")
    #expect(!logs.contains("eyJ"), "JWS or JWT material in the logs")
    let authorization = try #require(fixture.standIn.requests.first?.headers["authorization"])
    let token = String(authorization.dropFirst("Bearer ".count))
    #expect(token.hasPrefix("eyJ"))
    #expect(!logs.contains(token))
    for part in token.split(separator: ".") { #expect(!logs.contains(part)) }
    let secretLines = try TestKey.pemText().split(separator: "\n").filter { !$0.hasPrefix("-----") }
    for line in secretLines { #expect(!logs.contains(line)) }
    #expect(!logs.contains("PRIVATE KEY"))
  }

  @Test func aMessageWithNewlinesAndQuotesStaysOneJSONLine() throws {
    let lines = LogLines()
    let logger = JSONLogger { lines.append($0) }
    logger.log(
      "warning", event: "answered", "bundle \"x\"\n{\"level\":\"info\",\"event\":\"forged\"}",
      fields: ["detail": "a\r\nb"])
    let written = lines.all.joined()
    #expect(written.filter { $0 == "\n" }.count == 1)
    #expect(written.hasSuffix("\n"))
    let object = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: String]
    #expect(object?["event"] == "answered")
    #expect(object?["message"]?.contains("forged") == true)
  }
}
