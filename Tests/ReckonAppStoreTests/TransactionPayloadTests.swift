import Foundation
import ReckonAppStore
import Testing

@Suite("JWSTransactionDecodedPayload and JWSRenewalInfoDecodedPayload decoding")
struct TransactionPayloadTests {
  private func date(milliseconds: Double) -> Date {
    Date(timeIntervalSince1970: milliseconds / 1000)
  }

  @Test func signedTransactionDecodesEveryModelledField() throws {
    let tx = try Fixture.decode(JWSTransactionDecodedPayload.self, "signedTransaction.json")
    #expect(tx.transactionId == "23456")
    #expect(tx.originalTransactionId == "12345")
    #expect(tx.webOrderLineItemId == "34343")
    #expect(tx.bundleId == "com.example")
    #expect(tx.productId == "com.example.product")
    #expect(tx.subscriptionGroupIdentifier == "55555")
    #expect(tx.purchaseDate == date(milliseconds: 1_698_148_900_000))
    #expect(tx.originalPurchaseDate == date(milliseconds: 1_698_148_800_000))
    #expect(tx.expiresDate == date(milliseconds: 1_698_149_000_000))
    #expect(tx.quantity == 1)
    #expect(tx.type == .autoRenewable)
    #expect(tx.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
    #expect(tx.inAppOwnershipType == .purchased)
    #expect(tx.signedDate == date(milliseconds: 1_698_148_900_000))
    #expect(tx.revocationReason == .appIssue)
    #expect(tx.revocationDate == date(milliseconds: 1_698_148_950_000))
    #expect(tx.isUpgraded == true)
    #expect(tx.offerType == .introductoryOffer)
    #expect(tx.offerIdentifier == "abc.123")
    #expect(tx.environment == .localTesting)
    #expect(tx.transactionReason == .purchase)
    #expect(tx.storefront == "USA")
    #expect(tx.storefrontId == "143441")
    #expect(tx.price == 10990)
    #expect(tx.currency == "USD")
    #expect(tx.offerDiscountType == .payAsYouGo)
    #expect(tx.appTransactionId == "71134")
    #expect(tx.offerPeriod == "P1Y")
    #expect(tx.isAdvancedCommerce)
    #expect(tx.billingPlanType == .monthly)
    let commitment = try #require(tx.commitmentInfo)
    #expect(commitment.billingPeriodNumber == 3)
    #expect(commitment.commitmentExpiresDate == date(milliseconds: 1_698_150_000_000))
    #expect(commitment.commitmentPrice == 119_880)
    #expect(commitment.totalBillingPeriods == 12)
    #expect(tx.revocationType == nil)
  }

  @Test func proratedRevocationIsReadable() throws {
    let tx = try Fixture.decode(
      JWSTransactionDecodedPayload.self, "signedTransactionWithRevocation.json")
    #expect(tx.revocationType == .refundProrated)
    #expect(tx.revocationPercentage == 50000)
    #expect(tx.revocationReason == .appIssue)
    #expect(tx.revocationDate == date(milliseconds: 1_698_148_950_000))
  }

  @Test func unknownTransactionEnumValuesAreKeptRaw() throws {
    let json = #"""
      {"transactionId":"1","type":"Subscription Bundle","inAppOwnershipType":"GIFTED",
       "revocationType":"PARTNER_REVOKE","revocationReason":7,"offerType":9,
       "environment":"Staging","transactionReason":"RESTORE","offerDiscountType":"BOGO",
       "billingPlanType":"QUARTERLY"}
      """#
    let tx = try AppStoreJSON.decoder().decode(
      JWSTransactionDecodedPayload.self, from: Data(json.utf8))
    #expect(tx.type == nil && tx.rawType == "Subscription Bundle")
    #expect(tx.inAppOwnershipType == nil && tx.rawInAppOwnershipType == "GIFTED")
    #expect(tx.revocationType == nil && tx.rawRevocationType == "PARTNER_REVOKE")
    #expect(tx.revocationReason == nil && tx.rawRevocationReason == 7)
    #expect(tx.offerType == nil && tx.rawOfferType == 9)
    #expect(tx.environment == nil && tx.rawEnvironment == "Staging")
    #expect(tx.transactionReason == nil && tx.rawTransactionReason == "RESTORE")
    #expect(tx.offerDiscountType == nil && tx.rawOfferDiscountType == "BOGO")
    #expect(tx.billingPlanType == nil && tx.rawBillingPlanType == "QUARTERLY")
    let again = try AppStoreJSON.decoder().decode(
      JWSTransactionDecodedPayload.self, from: AppStoreJSON.encoder().encode(tx))
    #expect(again == tx)
  }

  @Test func renewalInfoDecodesMainFields() throws {
    let info = try Fixture.decode(JWSRenewalInfoDecodedPayload.self, "signedRenewalInfo.json")
    #expect(info.expirationIntent == .customerCancelled)
    #expect(info.originalTransactionId == "12345")
    #expect(info.autoRenewProductId == "com.example.product.2")
    #expect(info.productId == "com.example.product")
    #expect(info.autoRenewStatus == .on)
    #expect(info.isInBillingRetryPeriod == true)
    #expect(info.priceIncreaseStatus == .customerHasNotResponded)
    #expect(info.gracePeriodExpiresDate == date(milliseconds: 1_698_148_900_000))
    #expect(info.offerType == .promotionalOffer)
    #expect(info.offerIdentifier == "abc.123")
    #expect(info.signedDate == date(milliseconds: 1_698_148_800_000))
    #expect(info.environment == .localTesting)
    #expect(info.recentSubscriptionStartDate == date(milliseconds: 1_698_148_800_000))
    #expect(info.renewalDate == date(milliseconds: 1_698_148_850_000))
    #expect(info.renewalPrice == 9990)
    #expect(info.currency == "USD")
    #expect(info.offerDiscountType == .payAsYouGo)
    #expect(info.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
    #expect(info.appTransactionId == "71134")
    #expect(info.offerPeriod == "P1Y")
    #expect(info.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
    #expect(info.renewalBillingPlanType == .monthly)
  }

  @Test func fractionalMillisecondDatesDecode() throws {
    let json = #"{"signedDate":1698148900000.5,"purchaseDate":1697679936049.7297}"#
    let tx = try AppStoreJSON.decoder().decode(
      JWSTransactionDecodedPayload.self, from: Data(json.utf8))
    let signed = try #require(tx.signedDate).timeIntervalSince1970 * 1000
    let purchased = try #require(tx.purchaseDate).timeIntervalSince1970 * 1000
    #expect(abs(signed - 1_698_148_900_000.5) < 0.001)
    #expect(abs(purchased - 1_697_679_936_049.7297) < 0.001)
  }

  @Test func xcodeSignedTransactionPayloadDecodesWithFractionalDates() throws {
    let tx = try AppStoreJSON.decoder().decode(
      JWSTransactionDecodedPayload.self, from: Fixture.jwsPayload("xcode-signed-transaction"))
    #expect(tx.environment == .xcode)
    #expect(tx.type == .autoRenewable)
    #expect(tx.productId == "pass.premium")
    #expect(tx.transactionId == "0")
    #expect(tx.inAppOwnershipType == .purchased)
    let purchased = try #require(tx.purchaseDate).timeIntervalSince1970 * 1000
    let signed = try #require(tx.signedDate).timeIntervalSince1970 * 1000
    #expect(abs(purchased - 1_697_679_936_049.7297) < 0.001)
    #expect(abs(signed - 1_697_679_936_056.485) < 0.001)
  }

  @Test func xcodeSignedRenewalInfoPayloadDecodesWithFractionalDates() throws {
    let info = try AppStoreJSON.decoder().decode(
      JWSRenewalInfoDecodedPayload.self, from: Fixture.jwsPayload("xcode-signed-renewal-info"))
    #expect(info.environment == .xcode)
    #expect(info.autoRenewStatus == .on)
    let renewal = try #require(info.renewalDate).timeIntervalSince1970 * 1000
    #expect(abs(renewal - 1_700_358_336_049.7297) < 0.001)
  }
}
