import Foundation
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy

/// Builds Google Play reviews and their facts for engine tests, as `Scenario` does for Apple's.
struct GooglePlayScenario {
  var reason: GooglePlayRefundReason? = .friendlyFraud
  var eventTime = Date(timeIntervalSince1970: 1_796_000_000)
  var receivedAt = Date(timeIntervalSince1970: 1_796_000_030)
  var accountId = "acct-7"
  var facts: [String: String?] = [
    "customer.consented": "true",
    "delivery.status": "DELIVERED",
    "product.sample_offered": "false",
    "usage.consumed": "45.2%",
  ]

  var notification: DeveloperNotification {
    DeveloperNotification(
      packageName: "com.example.play", eventTime: eventTime,
      kind: .pendingRefundReview(
        PendingRefundReviewNotification(
          pendingRefundToken: "prt-1", orderId: "GPA.3312-5841-2290-11234", refundReason: reason,
          obfuscatedAccountId: accountId)))
  }

  var request: GooglePlayReviewRequest {
    GooglePlayReviewRequest(notification, receivedAt: receivedAt)!
  }

  func gathered(schema: FactSchema = .googlePlay) throws -> GatheredFacts {
    var gathered = GatheredFacts(request: request, schema: schema)
    var values: [String: Value] = [:]
    for (name, text) in facts {
      guard let text, let fact = schema.policySchema.fact(named: name) else { continue }
      values[name] = try ValueParser.parse(text, as: fact.type)
    }
    gathered.add(values, from: "test", schema: schema)
    return gathered
  }

  /// Decides with a policy given as text, checked against Google Play's schema.
  func decide(_ policyText: String, trace: Bool = false) throws -> Decision {
    let loaded = PolicyLoader.load(
      SourceFile(path: "play.policy", text: policyText),
      schema: FactSchema.googlePlay.policySchema)
    guard let policy = loaded.policy else {
      throw PolicyDidNotLoad(diagnostics: loaded.renderedDiagnostics())
    }
    return Decider(policy: policy, schema: .googlePlay).decide(
      request, facts: try gathered(), trace: trace)
  }

  func with(_ name: String, _ value: String?) -> GooglePlayScenario {
    var copy = self
    copy.facts[name] = .some(value)
    return copy
  }
}
