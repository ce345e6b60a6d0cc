import Foundation
import ReckonSupport

extension ConsumptionRequestValidator {
  /// Validates a raw JSON body the way a strict App Store would, for stand-ins and for bodies
  /// that did not come from `ConsumptionRequest`.
  ///
  /// Missing required fields, `null`, wrong JSON types and unknown enum strings map to the
  /// matching Apple error; the cross-field rules of `validate(_:context:)` then apply to
  /// whatever parsed. Keys Apple does not define are ignored.
  public static func validate(
    body: Data,
    context: ConsumptionValidationContext = .init()
  ) -> [AppleRuleViolation] {
    // The strict byte parser, not `JSONDecoder`: every stored decision's body passes through
    // here, and `JSONDecoder` cost about 4% of a webhook request.
    guard case .object(let fields)? = try? JSONValue.parse(body)
    else {
      return [.generalBadRequest]
    }
    var found: Set<AppleRuleViolation> = []

    if fields["customerConsented"] != .bool(true) {
      found.insert(.invalidCustomerConsented)
    }
    if fields["sampleContentProvided"]?.isBool != true {
      found.insert(.invalidSampleContentProvided)
    }

    var deliveryStatus: DeliveryStatus?
    if case .string(let raw) = fields["deliveryStatus"] {
      deliveryStatus = DeliveryStatus(rawValue: raw)
    }
    if deliveryStatus == nil {
      found.insert(.invalidDeliveryStatus)
    }

    // An optional field sent as null is still "present": Apple's library never sends null,
    // so a strict server has no reason to read it as absent.
    var refundPreference: RefundPreference?
    switch fields["refundPreference"] {
    case nil:
      break
    case .string(let raw) where RefundPreference(rawValue: raw) != nil:
      refundPreference = RefundPreference(rawValue: raw)
    default:
      found.insert(.invalidRefundPreference)
    }

    let percentage: PercentageField
    switch fields["consumptionPercentage"] {
    case nil: percentage = .absent
    case .integer(let value): percentage = .integer(value)
    // A whole number written with a fraction or an exponent (`100.0`, `1e2`) is an integer, as
    // `JSONDecoder` reads it; 94.5 or 1e20 is not.
    case .number(let value) where Int(exactly: value) != nil:
      percentage = .integer(Int(value))
    default: percentage = .invalid
    }

    found.formUnion(
      crossFieldViolations(
        deliveryStatus: deliveryStatus,
        percentage: percentage,
        refundPreference: refundPreference,
        context: context))
    return ordered(found)
  }
}
