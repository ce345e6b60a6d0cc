import Foundation
import ReckonAppStore
import Testing

struct APIErrorCase: CustomTestStringConvertible, Sendable {
  let file: String
  let code: AppStoreAPIErrorCode
  let retryable: Bool
  var testDescription: String { file }
}

@Suite("App Store Server API error bodies")
struct AppStoreAPIErrorTests {
  static let fixtures: [APIErrorCase] = [
    .init(file: "apiException.json", code: .generalInternal, retryable: false),
    .init(file: "apiTooManyRequestsException.json", code: .rateLimitExceeded, retryable: true),
    .init(file: "apiUnknownError.json", code: .unknown(9_990_000), retryable: false),
    .init(file: "transactionIdNotFoundError.json", code: .transactionIdNotFound, retryable: false),
    .init(
      file: "familyTransactionNotSupportedError.json", code: .familyTransactionNotSupported,
      retryable: false),
    .init(file: "invalidTransactionIdError.json", code: .invalidTransactionId, retryable: false),
    .init(
      file: "invalidAppAccountTokenUUIDError.json", code: .invalidAppAccountTokenUUID,
      retryable: false),
    .init(
      file: "transactionIdNotOriginalTransactionId.json",
      code: .transactionIdIsNotOriginalTransactionId, retryable: false),
    .init(
      file: "appTransactionDoesNotExistError.json", code: .appTransactionDoesNotExist,
      retryable: false),
  ]

  @Test(arguments: fixtures)
  func applesErrorBodiesDecodeToTheirCode(_ row: APIErrorCase) throws {
    let body = try Fixture.decode(AppStoreAPIErrorBody.self, row.file)
    #expect(body.code == row.code)
    #expect(body.errorCode == row.code.rawCode)
    #expect(body.code.isRetryable == row.retryable)
    #expect(!body.errorMessage.isEmpty)
  }

  @Test func familyErrorKeepsApplesMessage() throws {
    let body = try Fixture.decode(
      AppStoreAPIErrorBody.self, "familyTransactionNotSupportedError.json")
    #expect(
      body
        == AppStoreAPIErrorBody(
          errorCode: 4_000_185,
          errorMessage:
            "Invalid request. Family Sharing transactions aren't supported by this endpoint."))
  }

  @Test func unknownCodeIsKeptRawWithoutAName() {
    let code = AppStoreAPIErrorCode(rawCode: 4_000_999)
    #expect(code == .unknown(4_000_999))
    #expect(code.rawCode == 4_000_999)
    #expect(code.errorName == nil)
    #expect(!code.isRetryable)
  }

  @Test(arguments: [
    4_000_000, 4_000_035, 4_000_036, 4_000_041, 4_000_044, 4_000_185, 4_000_209, 4_000_227,
    4_040_002, 4_040_004, 4_040_006, 4_040_010, 4_290_000, 5_000_000, 5_000_001,
  ])
  func knownCodeRoundTripsAndHasAName(_ raw: Int) throws {
    let code = AppStoreAPIErrorCode(rawCode: raw)
    #expect(code.rawCode == raw)
    let name = try #require(code.errorName)
    #expect(name.hasSuffix("Error"))
  }

  @Test func onlyRateLimitAndRetryableCodesAreRetryable() {
    let retryable = [
      4_000_035, 4_040_002, 4_040_004, 4_040_006, 4_040_010, 4_290_000, 5_000_000, 5_000_001,
    ]
    .filter { AppStoreAPIErrorCode(rawCode: $0).isRetryable }
    #expect(retryable == [4_040_002, 4_040_004, 4_040_006, 4_290_000, 5_000_001])
  }
}
