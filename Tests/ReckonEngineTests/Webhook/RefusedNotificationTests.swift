import Foundation
import ReckonAppStore
import ReckonEngine
import Testing

/// Whatever fails verification is answered 4xx and never recorded or decided. The verifier's
/// verdicts themselves are covered in ReckonAppStoreTests; here each reaches the webhook answer.
struct RefusedNotificationTests {
  enum Forgery: String, CaseIterable, CustomTestStringConvertible {
    case untrustedRoot, wrongBundle, wrongEnvironment, wrongAppAppleId, tamperedPayload
    case notJSON, noSignedPayload, algorithmNone

    var testDescription: String { rawValue }

    func body(_ fixture: WebhookFixture) throws -> Data {
      var notification = SimulatedNotification()
      switch self {
      case .untrustedRoot: return try notification.body(signedBy: LocalCertificateAuthority())
      case .wrongBundle: notification.bundleId = "com.example.other"
      case .wrongEnvironment: notification.environment = "Sandbox"
      case .wrongAppAppleId: notification.appAppleId = 99
      case .tamperedPayload:
        let signed = try fixture.body(notification)
        let text = String(decoding: signed, as: UTF8.self)
        let parts = text.split(separator: ".")
        return Data((parts[0] + "." + parts[1].dropLast(2) + "AA." + parts[2]).utf8)
      case .notJSON: return Data("hello".utf8)
      case .noSignedPayload: return Data(#"{"payload": "x"}"#.utf8)
      case .algorithmNone:
        let payload = try JSONSerialization.data(
          withJSONObject: notification.notificationPayload("x"))
        let jws = try fixture.authority.sign(payload: payload, algorithm: "none")
        return Data(#"{"signedPayload":"\#(jws)"}"#.utf8)
      }
      return try fixture.body(notification)
    }
  }

  @Test(arguments: Forgery.allCases)
  func isAnswered4xxAndNeverRecorded(forgery: Forgery) async throws {
    let fixture = try WebhookFixture()
    let answer = await fixture.service.answer(body: try forgery.body(fixture))
    #expect((400..<500).contains(answer.status))
    #expect(answer.verdict == .refused)
    #expect(try fixture.recorded() == 0)
    #expect(try fixture.store.entries().isEmpty)
  }
}
