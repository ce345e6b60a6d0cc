import Foundation
import ReckonAppStore
import Testing

@Suite("ResponseBodyV2DecodedPayload decoding")
struct NotificationPayloadTests {
  @Test func consumptionRequestNotificationDecodesEveryField() throws {
    let payload = try Fixture.decode(
      ResponseBodyV2DecodedPayload.self, "signedConsumptionRequestNotification.json")
    #expect(payload.notificationType == .consumptionRequest)
    #expect(payload.rawNotificationType == "CONSUMPTION_REQUEST")
    #expect(payload.subtype == nil)
    #expect(payload.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
    #expect(payload.version == "2.0")
    #expect(payload.signedDate == Date(timeIntervalSince1970: 1_698_148_900))
    let data = try #require(payload.data)
    #expect(data.environment == .localTesting)
    #expect(data.rawEnvironment == "LocalTesting")
    #expect(data.appAppleId == 41234)
    #expect(data.bundleId == "com.example")
    #expect(data.bundleVersion == "1.2.3")
    #expect(data.signedTransactionInfo == "signed_transaction_info_value")
    #expect(data.signedRenewalInfo == "signed_renewal_info_value")
    #expect(data.status == .active)
    #expect(data.consumptionRequestReason == .unintendedPurchase)
  }

  @Test func subscribedNotificationHasSubtypeAndNoRefundReason() throws {
    let payload = try Fixture.decode(ResponseBodyV2DecodedPayload.self, "signedNotification.json")
    #expect(payload.notificationType == .subscribed)
    #expect(payload.subtype == .initialBuy)
    #expect(payload.data?.consumptionRequestReason == nil)
    #expect(payload.data?.rawConsumptionRequestReason == nil)
    #expect(payload.summary == nil)
  }

  @Test func summaryNotificationCarriesSummaryInsteadOfData() throws {
    let payload = try Fixture.decode(
      ResponseBodyV2DecodedPayload.self, "signedSummaryNotification.json")
    #expect(payload.notificationType == .renewalExtension)
    #expect(payload.subtype == .summary)
    #expect(payload.data == nil)
    let summary = try #require(payload.summary)
    #expect(summary.environment == .localTesting)
    #expect(summary.appAppleId == 41234)
    #expect(summary.productId == "com.example.product")
    #expect(summary.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
    #expect(summary.storefrontCountryCodes == ["CAN", "USA", "MEX"])
    #expect(summary.succeededCount == 5)
    #expect(summary.failedCount == 2)
  }

  @Test func externalPurchaseTokenNotificationCarriesTheTokenInsteadOfData() throws {
    let payload = try Fixture.decode(
      ResponseBodyV2DecodedPayload.self, "signedExternalPurchaseTokenNotification.json")
    #expect(payload.notificationType == .externalPurchaseToken)
    #expect(payload.subtype == .unreported)
    #expect(payload.data == nil)
    let token = try #require(payload.externalPurchaseToken)
    #expect(token.externalPurchaseId == "b2158121-7af9-49d4-9561-1f588205523e")
    #expect(token.tokenCreationDate == Date(timeIntervalSince1970: 1_698_148_950))
    #expect(token.appAppleId == 55555)
    #expect(token.bundleId == "com.example")
    #expect(token.environment == .production)
  }

  @Test func aSandboxExternalPurchaseTokenIsInTheSandbox() throws {
    let payload = try Fixture.decode(
      ResponseBodyV2DecodedPayload.self, "signedExternalPurchaseTokenSandboxNotification.json")
    let token = try #require(payload.externalPurchaseToken)
    #expect(token.externalPurchaseId == "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e")
    #expect(token.environment == .sandbox)
    #expect(ExternalPurchaseToken().environment == nil)
  }

  @Test func rescindConsentNotificationCarriesAppDataInsteadOfData() throws {
    let payload = try Fixture.decode(
      ResponseBodyV2DecodedPayload.self, "signedRescindConsentNotification.json")
    #expect(payload.notificationType == .rescindConsent)
    #expect(payload.subtype == nil)
    #expect(payload.data == nil)
    let appData = try #require(payload.appData)
    #expect(appData.environment == .localTesting)
    #expect(appData.rawEnvironment == "LocalTesting")
    #expect(appData.appAppleId == 41234)
    #expect(appData.bundleId == "com.example")
    #expect(appData.signedAppTransactionInfo == "signed_app_transaction_info_value")
  }

  @Test func unknownEnumValuesDecodeAndAreKeptRaw() throws {
    let json = String(
      decoding: try Fixture.data("signedConsumptionRequestNotification.json"), as: UTF8.self
    )
    .replacingOccurrences(of: "\"CONSUMPTION_REQUEST\"", with: "\"SOMETHING_NEW\"")
    .replacingOccurrences(of: "\"UNINTENDED_PURCHASE\"", with: "\"CHANGED_MIND\"")
    .replacingOccurrences(of: "\"LocalTesting\"", with: "\"Staging\"")
    .replacingOccurrences(of: "\"status\": 1", with: "\"status\": 9")
    let payload = try AppStoreJSON.decoder().decode(
      ResponseBodyV2DecodedPayload.self, from: Data(json.utf8))
    #expect(payload.notificationType == nil)
    #expect(payload.rawNotificationType == "SOMETHING_NEW")
    #expect(payload.data?.consumptionRequestReason == nil)
    #expect(payload.data?.rawConsumptionRequestReason == "CHANGED_MIND")
    #expect(payload.data?.environment == nil)
    #expect(payload.data?.rawEnvironment == "Staging")
    #expect(payload.data?.status == nil)
    #expect(payload.data?.rawStatus == 9)

    let reencoded = try AppStoreJSON.encoder().encode(payload)
    let again = try AppStoreJSON.decoder().decode(
      ResponseBodyV2DecodedPayload.self, from: reencoded)
    #expect(again == payload)
  }

  @Test func settingTypedValueUpdatesRawValue() {
    var payload = ResponseBodyV2DecodedPayload()
    payload.notificationType = .refundReversed
    #expect(payload.rawNotificationType == "REFUND_REVERSED")
    payload.notificationType = nil
    #expect(payload.rawNotificationType == nil)
  }
}
