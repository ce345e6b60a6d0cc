import Foundation
import ReckonAppStore
import ReckonGooglePlay

/// A reply's body in its store's shape.
public enum ReplyBody: Hashable, Sendable, Encodable {
  /// Apple's Send Consumption Information body.
  case appStore(ConsumptionRequest)
  /// Google Play's `orders.reviewrefund` body.
  case googlePlay(ReviewRefundRequest)

  /// The bytes as sent: compact JSON with sorted keys.
  public var json: Data {
    switch self {
    case .appStore(let body): DecisionReport.bodyJSON(body)
    case .googlePlay(let body): DecisionReport.answerJSON(body)
    }
  }

  /// Encodes the body itself, as the store receives it.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .appStore(let body): try body.encode(to: encoder)
    case .googlePlay(let body): try body.encode(to: encoder)
    }
  }

  /// The value of one field, as explanations show it; `(left out)` for an absent optional one.
  func value(of field: String) -> String {
    switch self {
    case .appStore(let body):
      switch field {
      case "customerConsented": return String(body.customerConsented)
      case "deliveryStatus": return body.deliveryStatus.rawValue
      case "sampleContentProvided": return String(body.sampleContentProvided)
      case "consumptionPercentage":
        return body.consumptionPercentage.map(String.init) ?? "(left out)"
      default: return body.refundPreference?.rawValue ?? "(left out)"
      }
    case .googlePlay(let body):
      switch field {
      case "sampleContentProvided": return String(body.sampleContentProvided)
      case "consumptionPercentage", "consumptionPercentageMilliunits":
        return body.consumptionPercentageMilliunits.map(String.init) ?? "(left out)"
      case "pendingRefundToken": return body.pendingRefundToken
      default: return body.refundPreference.rawValue
      }
    }
  }
}
