/// The JSON body Apple returns with a 4xx or 5xx from the App Store Server API.
public struct AppStoreAPIErrorBody: Codable, Hashable, Sendable {
  /// Apple's numeric error code, e.g. 4040010.
  public var errorCode: Int
  /// Apple's human-readable description of the error.
  public var errorMessage: String

  /// Creates an error body.
  public init(errorCode: Int, errorMessage: String) {
    self.errorCode = errorCode
    self.errorMessage = errorMessage
  }

  /// The code as a known case, or `.unknown` keeping the number.
  public var code: AppStoreAPIErrorCode { AppStoreAPIErrorCode(rawCode: errorCode) }
}
