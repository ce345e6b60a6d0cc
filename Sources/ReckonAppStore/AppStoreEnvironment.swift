import Foundation

/// The server environment a payload belongs to.
public enum AppStoreEnvironment: String, Codable, Hashable, Sendable, CaseIterable {
  /// Apple's sandbox environment.
  case sandbox = "Sandbox"
  /// The live App Store.
  case production = "Production"
  /// StoreKit testing in Xcode; its payloads are self-signed and carry fractional dates.
  case xcode = "Xcode"
  /// Apple's libraries' own local test environment.
  case localTesting = "LocalTesting"

  /// Whether the App Store Server API answers for this environment's transactions: Production
  /// and Sandbox do; Xcode's and LocalTesting's exist only on the developer's machine.
  public var hasServerAPI: Bool { self == .production || self == .sandbox }

  /// How long after Apple sends a CONSUMPTION_REQUEST a consumption reply counts: 12 hours, and 5
  /// minutes in the sandbox, where Apple applies a later reply no more ("Testing refund requests").
  public var consumptionReplyWindow: TimeInterval {
    self == .sandbox ? 5 * 60 : 12 * 3_600
  }

  /// The longest reply window of any environment: a request received longer ago than this is
  /// past its deadline.
  public static let longestReplyWindow = allCases.map(\.consumptionReplyWindow).max() ?? 0

  /// When a consumption reply to a request is due: the window counted from when Apple first sent
  /// the request (its `signedDate`, which Apple's retries keep), or from its receipt when that is
  /// earlier (Reckon's clock behind Apple's).
  public func replyDeadline(receivedAt: Date, signedDate: Date?) -> Date {
    min(receivedAt, signedDate ?? receivedAt).addingTimeInterval(consumptionReplyWindow)
  }
}
