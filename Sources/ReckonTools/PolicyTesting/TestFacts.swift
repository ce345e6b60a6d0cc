import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy

/// The facts of one policy test: Reckon's documented defaults, then the file's `given` lines, then
/// the test's own; and the CONSUMPTION_REQUEST they describe, built so the real `Decider` sees the
/// notification facts exactly as given.
struct TestFacts {
  /// What a test starts from when it does not give a fact. Optional facts start missing.
  static let defaults: [(fact: String, value: String)] = [
    ("now", "\"2026-01-15T12:00:00Z\""),
    ("reason", "OTHER"),
    ("request.environment", "PRODUCTION"),
    ("product.id", "\"com.example.product\""),
    ("product.type", "CONSUMABLE"),
    ("product.sample_offered", "false"),
    ("purchase.date", "2 days ago"),
    ("purchase.quantity", "1"),
    ("delivery.status", "DELIVERED"),
    ("usage.consumed", "0%"),
    ("customer.consented", "true"),
    ("customer.account_age", "365 days"),
    ("customer.lifetime_spent", "0 USD"),
    ("customer.lifetime_refunded", "0 USD"),
    ("customer.refunds_last_90_days", "0"),
    ("history.earlier_requests", "0"),
    ("history.earlier_refunds", "0"),
  ]

  let schema: FactSchema
  private(set) var values: [String: Value] = [:]
  private(set) var diagnostics: [Diagnostic] = []
  /// Whether the test gives a `now` that could not be read (and was reported).
  private var nowUnreadable = false

  /// Resolves the defaults, then each list of assignments in turn; later assignments win.
  /// `policy` is the policy under test, whose lets a test cannot give.
  init(schema: FactSchema, layers: [[FactAssignment]], policy: CheckedPolicy? = nil) {
    self.schema = schema
    var written: [String: (TestValue?, SourceSpan?)] = [:]
    for (fact, text) in TestFacts.defaults {
      let quoted = text.hasPrefix("\"")
      let value = quoted ? String(text.dropFirst().dropLast()) : text
      written[fact] = (
        TestValue(text: value, isQuoted: quoted, span: SourceSpan(start: 0, end: 0)), nil
      )
    }
    for assignment in layers.joined() {
      guard schema.policySchema.fact(named: assignment.fact.value) != nil else {
        if let policy, let index = policy.letIndex(named: assignment.fact.value) {
          reportGivenLet(assignment, policy, index)
          continue
        }
        let hint = Suggestions.closest(
          to: assignment.fact.value, among: schema.policySchema.facts.map(\.name))
        report(
          .unknownFact, "unknown fact '\(assignment.fact.value)'", at: assignment.fact.span,
          hint: hint.map { "did you mean '\($0)'?" })
        continue
      }
      written[assignment.fact.value] = (assignment.value, assignment.span)
    }
    if let now = written.removeValue(forKey: "now") {
      resolve("now", now.0, isDefault: now.1 == nil)
      nowUnreadable = now.0 != nil && values["now"] == nil
    }
    for (fact, entry) in written.sorted(by: { $0.key < $1.key }) {
      resolve(fact, entry.0, isDefault: entry.1 == nil)
    }
    // A test that does not say when the original purchase was made tests a first purchase,
    // whatever its purchase.date.
    if written["purchase.original_date"] == nil,
      schema.policySchema.fact(named: "purchase.original_date") != nil
    {
      values["purchase.original_date"] = values["purchase.date"]
    }
  }

  /// Facts the notification carries as whole numbers: a test's value must be one the notification
  /// can hold, or the request built from it would carry another.
  static let wholeNumberFacts: Set<String> = ["purchase.quantity"]

  /// Facts that count things, which no request has as a fraction.
  static let countFacts: Set<String> = [
    "customer.refunds_last_90_days", "history.earlier_requests", "history.earlier_refunds",
  ]

  /// Facts no request has below zero.
  static let nonNegativeFacts: Set<String> = countFacts.union([
    "purchase.quantity", "usage.consumed_units", "customer.account_age",
    "customer.lifetime_spent", "customer.lifetime_refunded",
  ])

  /// Times that come before the request, so before the test's `now`. Not `usage.last_used`: facts
  /// are gathered when the request is decided, which a retry puts after `now`, and a customer
  /// may go on using what they asked to have refunded.
  static let pastTimes: Set<String> = ["purchase.date", "purchase.original_date"]

  /// Reads one fact's value. One counted back from a `now` the test has not got is left missing
  /// without a word when it is a default (`purchase.date` is 2 days ago) or when `now` itself
  /// could not be read, which has its own error: one mistake, one message.
  private mutating func resolve(_ fact: String, _ written: TestValue?, isDefault: Bool) {
    guard let written, let descriptor = schema.policySchema.fact(named: fact) else { return }
    let value: Value
    do {
      value = try TestValues.parse(written, as: descriptor.type, now: values["now"])
    } catch {
      if error.needsNow, isDefault || nowUnreadable { return }
      report(.invalidTestValue, "\(fact): \(error.description)", at: written.span)
      return
    }
    if !isDefault, let problem = Self.impossibility(fact, value, now: values["now"]) {
      report(
        .invalidTestValue, "\(fact): '\(written.text)' \(problem.message)", at: written.span,
        hint: problem.hint)
      return
    }
    values[fact] = value
  }

  /// Why no request received at `now` could have `value` for `fact`, and what to write
  /// instead; a test (or a what-if) of such a request passes or fails for a reason no real
  /// request meets.
  static func impossibility(
    _ fact: String, _ value: Value, now: Value?, nowName: String = "the test's now"
  ) -> (message: String, hint: String)? {
    switch value {
    case .number(let number)
    where TestFacts.wholeNumberFacts.contains(fact) && Int(exactly: number) == nil:
      return (
        "is not a whole number the notification can carry",
        "write a whole number of items, such as 3"
      )
    case .timestamp(let time) where TestFacts.pastTimes.contains(fact):
      guard case .timestamp(let now)? = now, time > now else { return nil }
      return (
        "is after \(nowName) (\(Value.timestamp(now).formatted(as: .timestamp))): a request "
          + "comes after the purchase it asks about",
        "give an earlier time, as in 3 days ago, or give now a later one"
      )
    case .number(let number)
    where TestFacts.countFacts.contains(fact) && number.rounded() != number:
      return ("is not a whole number: it counts", "write a whole number, such as 2")
    case .number(let number) where TestFacts.nonNegativeFacts.contains(fact) && number < 0,
      .duration(let number) where TestFacts.nonNegativeFacts.contains(fact) && number < 0:
      return ("is below zero, which no request has", "write 0 or more")
    case .money(let amount, _) where TestFacts.nonNegativeFacts.contains(fact) && amount < 0:
      return ("is below zero, which no request has", "write 0 or more, as in 0 USD")
    default: return nil
    }
  }

  /// A let is computed from facts on every decision, so giving it would test a request that
  /// cannot happen: the test gives the facts it is computed from instead.
  private mutating func reportGivenLet(
    _ assignment: FactAssignment, _ policy: CheckedPolicy, _ index: Int
  ) {
    let name = assignment.fact.value
    let facts = policy.factsRead(byLet: index)
    let message =
      facts.isEmpty
      ? "'\(name)' is a let in \(policy.source.path), which reads no facts; a test cannot give it"
      : "'\(name)' is a let in \(policy.source.path), computed from \(facts.joined(separator: ", ")); "
        + "give \(facts.count == 1 ? "that fact" : "those facts")"
    let value =
      assignment.value.map { "= \($0.isQuoted ? "\"\($0.text)\"" : $0.text)" } ?? "is missing"
    report(
      .givenLet, message, at: assignment.fact.span,
      hint: "to check its value, write: expect \(name) \(value)")
  }

  private mutating func report(
    _ id: DiagnosticID, _ message: String, at span: SourceSpan, hint: String? = nil
  ) {
    diagnostics.append(Diagnostic(id, .error, message, at: span, hint: hint))
  }

  /// The request the facts describe, received at `now`.
  func request() -> RefundRequest {
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "2000000000000001"
    transaction.originalTransactionId = "2000000000000001"
    transaction.bundleId = "com.example.app"
    transaction.productId = text("product.id")
    transaction.type = enumName("product.type", FactSchema.productType).flatMap(
      ProductType.init(policyName:))
    transaction.purchaseDate = date("purchase.date")
    transaction.originalPurchaseDate = date("purchase.original_date")
    if values["purchase.original_date"] == nil {
      // The test said it is missing: only a renewal that does not carry it has none.
      transaction.transactionReason = .renewal
    }
    if case .number(let quantity)? = values["purchase.quantity"] {
      transaction.quantity = Int(exactly: quantity)
    }
    if case .money(let milli, let currency)? = values["purchase.price"] {
      transaction.price = milli
      transaction.currency = currency
    }
    transaction.storefront = text("purchase.storefront")
    transaction.rawOfferType = enumName("purchase.offer", FactSchema.offer).flatMap(
      TestFacts.offerCode)
    let environment = enumName("request.environment", FactSchema.environment).flatMap(
      TestFacts.environment)
    transaction.rawEnvironment = environment?.rawValue
    var data = NotificationData()
    data.rawEnvironment = environment?.rawValue
    data.bundleId = "com.example.app"
    data.rawConsumptionRequestReason = enumName("reason", FactSchema.reason)
    var notification = ResponseBodyV2DecodedPayload()
    notification.rawNotificationType = "CONSUMPTION_REQUEST"
    notification.data = data
    let now = date("now") ?? Date(timeIntervalSince1970: 0)
    notification.signedDate = now
    return RefundRequest(notification: notification, transaction: transaction, receivedAt: now)
  }

  /// The Google Play review the facts describe, received at `now`: its order, package,
  /// reason and obfuscated ids as given (each has a test value when not given).
  func review() -> GooglePlayReviewRequest {
    let now = date("now") ?? Date(timeIntervalSince1970: 0)
    let reason = enumName("reason", FactSchema.GooglePlay.reason).flatMap { name in
      GooglePlayRefundReason.known.first { $0.name == name }
    }
    let notification = DeveloperNotification(
      packageName: text("request.package_name") ?? "com.example.app", eventTime: now,
      kind: .pendingRefundReview(
        PendingRefundReviewNotification(
          pendingRefundToken: "prt-test", orderId: text("order.id") ?? "GPA.0000-0000-0000-00001",
          refundReason: reason, obfuscatedAccountId: text("customer.obfuscated_account_id"),
          obfuscatedProfileId: text("customer.obfuscated_profile_id"))))
    return GooglePlayReviewRequest(notification, receivedAt: now)!
  }

  /// The gathered facts: the notification's from the request, the rest as given.
  func gathered(for request: some ReplyRequest, source: String) -> GatheredFacts {
    var facts = GatheredFacts(request: request, schema: schema)
    let others = values.filter { schema.origin(of: $0.key) != .notification }
    facts.add(others, from: source, schema: schema)
    return facts
  }

  private func text(_ fact: String) -> String? {
    if case .text(let text)? = values[fact] { text } else { nil }
  }

  private func date(_ fact: String) -> Date? {
    if case .timestamp(let seconds)? = values[fact] {
      Date(timeIntervalSince1970: seconds)
    } else {
      nil
    }
  }

  private func enumName(_ fact: String, _ type: EnumType) -> String? {
    if case .enumeration(let ordinal)? = values[fact], type.cases.indices.contains(ordinal) {
      type.cases[ordinal]
    } else {
      nil
    }
  }

  private static func offerCode(_ name: String) -> Int? {
    ["INTRODUCTORY": 1, "PROMOTIONAL": 2, "OFFER_CODE": 3, "WIN_BACK": 4][name]
  }

  private static func environment(_ name: String) -> AppStoreEnvironment? {
    AppStoreEnvironment.allCases.first { NotificationFacts.policyName(of: $0) == name }
  }
}
