import Foundation
import ReckonAppStore
import ReckonServer
import ReckonStandIn
import ReckonSupport
import ReckonTestSupport
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

  /// Anyone who can reach the webhook writes the `alg` it quotes: a long one must not become
  /// a line as long in the log and the answer, or a loop of posts fills the disk.
  /// Cut by scalars: `e` and 40,000 combining accents are one character.
  @Test(arguments: [
    String(repeating: "X", count: 180_000), "e" + String(repeating: "\u{0301}", count: 40_000),
  ])
  func aLongUnverifiedAlgorithmIsQuotedShort(_ algorithm: String) async throws {
    let fixture = try ServerFixture()
    let header = Base64URL.encode(Data(#"{"alg":"\#(algorithm)"}"#.utf8))
    let body = Data(
      #"{"signedPayload":"\#(header).\#(Base64URL.encode(Data("{}".utf8))).c2ln"}"#.utf8)
    let (status, answer) = try await fixture.post(body)
    await fixture.stop()
    #expect(status == 400)
    #expect(answer.utf8.count < 1_000, "\(answer.utf8.count) bytes answered")
    #expect(answer.contains("(\(algorithm.utf8.count) bytes)"))
    let logged = fixture.logLines.all.joined()
    #expect(logged.contains("unsupported signing algorithm"))
    #expect(logged.utf8.count < 20_000, "\(logged.utf8.count) bytes logged")
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
