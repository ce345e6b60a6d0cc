import Foundation
import ReckonAppStore
import ReckonGooglePlay
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// A dry-run row keeps its identifiers and verdicts packed; what it gives back must be exactly
/// what it was given, and verdicts must compare as their parts do.
struct PackedRowTests {
  @Test(arguments: [
    "8297c3c9-b132-4397-8d40-22e30377c9a1", "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    // Upper or mixed case, or a UUID's length without its shape, is kept as written.
    "8297C3C9-B132-4397-8D40-22E30377C9A1", "8297c3c9-b132-4397-8d40-22e30377c9A1",
    "8297c3c9-b132-4397-8d40_22e30377c9a1", "8297c3c9b-132-4397-8d40-22e30377c9a1",
    "8297c3c9-b132-4397-8d40-22e30377c9g1", "2000000000000000", "0", "7", "18446744073709551615",
    "9999999999999999999",
    // A leading zero, a sign, twenty digits or none at all is kept as written.
    "0123", "-12", "+12", "12345678901234567890", "", "1 2", "12a", "ü", "a\u{0}b",
  ])
  func identifierGivesBackWhatItWasGiven(_ text: String) {
    let packed = PackedIdentifier(text)
    #expect(packed.text == text)
    #expect(packed.isEmpty == text.isEmpty)
  }

  @Test(arguments: [
    ("2000000000000000", true), ("8297c3c9-b132-4397-8d40-22e30377c9a1", true),
    ("8297C3C9-B132-4397-8D40-22E30377C9A1", false), ("0123", false),
    ("12345678901234567890", false),
  ])
  func applesShapesArePackedWithoutTheirText(_ text: String, _ packed: Bool) {
    if case .text = PackedIdentifier(text) {
      #expect(!packed)
    } else {
      #expect(packed)
    }
  }

  @Test func identifiersAreEqualExactlyWhenTheirTextIs() {
    let texts = [
      "2000000000000001", "2000000000000002", "02000000000000001",
      "8297c3c9-b132-4397-8d40-22e30377c9a1", "8297C3C9-B132-4397-8D40-22E30377C9A1",
    ]
    for left in texts {
      for right in texts {
        #expect((PackedIdentifier(left) == PackedIdentifier(right)) == (left == right))
      }
    }
  }

  /// Every variant of a UUID with one byte changed: read as Foundation reads it when it is
  /// 8-4-4-4-12 hexadecimal digits, else not read (the line then takes the general decoder,
  /// which is Foundation's, lenient as it is about some such text).
  @Test func uuidTextReadsAsFoundationDoes() {
    let base = Array("7e3fb20b-4cdb-47cc-936d-99d65f608138".utf8)
    let replacements = Array("0123456789abcdefABCDEFgG-_ /:@`{\u{7F}".utf8) + [0x00, 0x80, 0xC3]
    let hexDigits = Set("0123456789abcdefABCDEF".utf8)
    var read = 0
    for position in base.indices {
      for byte in replacements {
        var bytes = base
        bytes[position] = byte
        let shaped = [8, 13, 18, 23].contains(position) ? byte == 0x2D : hexDigits.contains(byte)
        let foundation = String(bytes: bytes, encoding: .utf8).flatMap(UUID.init(uuidString:))
        let fast = bytes.withUnsafeBufferPointer { TransactionFields.uuid($0) }
        #expect(fast == (shaped ? foundation : nil), "\(String(decoding: bytes, as: UTF8.self))")
        if shaped { #expect(foundation != nil) }
        if fast != nil { read += 1 }
      }
    }
    // The unchanged digit, nine other digits and six upper-case letters at each digit's place,
    // a hyphen at each hyphen's place.
    #expect(read == 32 * (1 + 9 + 6 + 6) + 4)
  }

  @Test(
    arguments: [
      (
        DecisionAction.respond,
        Optional(
          ConsumptionRequest(
            customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
            consumptionPercentage: 40_000, refundPreference: .decline)), Optional(3)
      ),
      (
        .hold,
        ConsumptionRequest(
          customerConsented: true, deliveryStatus: .undeliveredServerOutage,
          sampleContentProvided: true, consumptionPercentage: nil, refundPreference: .grantFull),
        nil
      ),
      (
        .respond,
        ConsumptionRequest(
          customerConsented: false, deliveryStatus: .undeliveredOther, sampleContentProvided: true,
          consumptionPercentage: -5, refundPreference: nil), 0
      ),
      (.skip(.noConsent("false")), nil, nil),
      (.skip(.policyDoesNotRespond(rule: "support: do not respond")), nil, 4),
      (
        .skip(.violatesAppleRules([.grantProratedConsumptionPercentage])),
        ConsumptionRequest(
          customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
          consumptionPercentage: nil, refundPreference: .grantProrated), 7
      ),
      (
        .skip(.productTypeUnknown),
        ConsumptionRequest(
          customerConsented: true, deliveryStatus: .undeliveredWrongItem,
          sampleContentProvided: false, consumptionPercentage: 100_000,
          refundPreference: .grantProrated), Int(Int32.max)
      ),
    ] as [(DecisionAction, ConsumptionRequest?, Int?)])
  func verdictGivesBackItsParts(
    _ action: DecisionAction, _ body: ConsumptionRequest?, _ rule: Int?
  ) {
    let verdict = DryRunVerdict(action: action, body: body, ruleIndex: rule)
    #expect(verdict.action == action)
    #expect(verdict.body == body)
    #expect(verdict.ruleIndex == rule)
  }

  @Test func verdictsAreEqualExactlyWhenTheirPartsAre() {
    let body = ConsumptionRequest(
      customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
      consumptionPercentage: 0, refundPreference: nil)
    var withPercentage = body
    withPercentage.consumptionPercentage = nil
    var declining = body
    declining.refundPreference = .decline
    let parts: [(DecisionAction, ConsumptionRequest?, Int?)] = [
      (.respond, body, 1), (.hold, body, 1), (.respond, body, nil), (.respond, body, 0),
      (.respond, withPercentage, 1), (.respond, declining, 1), (.respond, nil, 1),
      (.skip(.noConsent("false")), nil, 1), (.skip(.noConsent("missing")), nil, 1),
      (.skip(.policyDoesNotRespond(rule: "a")), nil, 1),
      (.skip(.policyDoesNotRespond(rule: "b")), nil, 1),
    ]
    // Verdicts made through one sharing table and through none compare alike.
    var shared = SharedSkipReasons()
    for left in parts {
      for right in parts {
        let same = left.0 == right.0 && left.1 == right.1 && left.2 == right.2
        let a = DryRunVerdict(action: left.0, body: left.1, ruleIndex: left.2)
        let b = DryRunVerdict(action: right.0, body: right.1, ruleIndex: right.2, sharing: &shared)
        #expect((a == b) == same)
        if same { #expect(a.hashValue == b.hashValue) }
      }
    }
  }

  @Test func equalSkipReasonsAreHeldOnce() {
    var shared = SharedSkipReasons(capacity: 2)
    let first = shared.shared(.noConsent("false"))
    #expect(shared.shared(.noConsent("false")) === first)
    _ = shared.shared(.noConsent("missing"))
    _ = shared.shared(.productTypeUnknown)
    // Past its capacity the table forgets the oldest reason; the verdict is no less right.
    let again = shared.shared(.noConsent("false"))
    #expect(again !== first)
    #expect(again == first)
  }

  @Test(arguments: DryRunOutcome.allCases)
  func verdictCountsUnderTheOutcomeOfItsParts(_ outcome: DryRunOutcome) {
    if let google = Self.googlePlayVerdict(outcome) {
      #expect(google.outcome == outcome)
      #expect(google.store == .googlePlay)
      return
    }
    let preferences: [RefundPreference?] = [.grantFull, .grantProrated, .decline, nil]
    let action: DecisionAction
    var preference: RefundPreference? = nil
    switch outcome.rawValue {
    case 0..<4:
      action = .respond
      preference = preferences[outcome.rawValue]
    case 4..<8:
      action = .hold
      preference = preferences[outcome.rawValue - 4]
    default:
      let reasons: [DryRunOutcome: SkipReason] = [
        .skipNoConsent: .noConsent("false"), .skipPolicy: .policyDoesNotRespond(rule: "r"),
        .skipMissingFact: .missingRequiredFact(field: "deliveryStatus", fact: "delivery.status"),
        .skipRuleReadsMissingFact: .setReadsMissingFact(field: "f", rule: "r", because: "b"),
        .skipAppleRules: .productTypeUnknown,
        .skipNotAnswerable: .violatesAppleRules([.invalidAssignedTransactionNotSupported]),
      ]
      action = .skip(reasons[outcome]!)
    }
    let body = ConsumptionRequest(
      customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
      refundPreference: preference)
    #expect(DryRunVerdict(action: action, body: body, ruleIndex: nil).outcome == outcome)
  }

  /// A verdict on a Google Play review that counts under `outcome`, for the outcomes only
  /// Google's answers have; nil for Apple's.
  static func googlePlayVerdict(_ outcome: DryRunOutcome) -> DryRunVerdict? {
    let answer = { (preference: GooglePlayRefundPreference) in
      GooglePlayDryRunAnswer(
        sampleContentProvided: false, refundPreference: preference,
        consumptionPercentageMilliunits: 45_200)
    }
    let parts: (DecisionAction, GooglePlayDryRunAnswer?)
    switch outcome {
    case .respondApprove: parts = (.respond, answer(.approve))
    case .respondNeutral: parts = (.respond, answer(.neutral))
    case .holdApprove: parts = (.hold, answer(.approve))
    case .holdNeutral: parts = (.hold, answer(.neutral))
    case .skipGooglePlayRules:
      parts = (.skip(.violatesGooglePlayRules([.consumptionOutOfRange(120_000)])), nil)
    default: return nil
    }
    var reasons = SharedSkipReasons(capacity: 0)
    return DryRunVerdict(action: parts.0, answer: parts.1, ruleIndex: 2, sharing: &reasons)
  }

  /// A dry-run holds a row per request, two verdicts in each: their size is the run's memory,
  /// and first touching memory is a good part of its time.
  @Test func rowsAndVerdictsStayPacked() {
    #expect(MemoryLayout<DryRunVerdict>.size <= 24)
    #expect(MemoryLayout<DryRunVerdict?>.size == MemoryLayout<DryRunVerdict>.size)
    #expect(MemoryLayout<PackedIdentifier>.size <= 17)
    #expect(MemoryLayout<DryRunRow>.stride <= 192)
  }
}
