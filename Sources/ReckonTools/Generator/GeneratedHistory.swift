import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState
import ReckonSupport

/// A state database as if Reckon had answered the generated requests: each notification
/// recorded, decided by the configured app's policy on facts gathered from the configured
/// sources, its answer delivered as decided, and Apple's later outcome attached (more refunds
/// where we asked for one, some prorated, a few reversed).
public enum GeneratedHistory {
  /// Writes the history of `generator`'s requests to a new state that `state` opens at
  /// `location` (a file there before is replaced); returns how many requests were decided.
  /// Each notification is stored as its generated line, or as `received` makes it from the
  /// request (a signed body, for a state shaped like a live service's).
  public static func write(
    _ generator: PastRequestGenerator, configuration path: String, to location: String,
    state: any StateOpener, received: ((RefundRequest) throws -> Data)? = nil
  ) async throws -> Int {
    let configuration = try ReckonConfiguration.load(path: path)
    let setup = try FactSourceSetup(
      configuration.factSources, currencies: configuration.currencies,
      alongside: configuration.stores)
    guard let app = configuration.apps.first else { return 0 }
    let policyText = try LocalFile.text(at: app.policyPath, limit: configuration.fileLimits.policy)
    guard let policy = try PolicyFiles.load(app.policyPath, schema: setup.schema).policy else {
      throw DryRunError.badLine(path: app.policyPath, line: 1, reason: "the policy does not check")
    }
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: location + suffix)
    }
    let store = try state.open(location: location, durability: .normal, rules: .stores)
    // As `reckon serve` gathers: with `history.*` from the database being written.
    let gatherer = setup.gatherer(records: StateHistoryFacts(store: store))
    let decider = Decider(policy: policy, schema: setup.schema)
    let policySHA256 = SHA256Digest.hex(Data(policyText.utf8))
    var decided = 0
    for index in 0..<generator.count {
      let generated = generator.request(index)
      let line = generated.jsonLine(generator, token: generator.customer(generated.customer).token)
      let request = try RequestFile.decode(Data(line.utf8), path: "generated")
      let raw = try received?(request) ?? Data(line.utf8)
      let requestId = try store.recordNotification(record(request, raw: raw)).requestId
      guard case .ready(let facts) = await gatherer.gather(request, for: policy) else { continue }
      let decision = decider.decide(request, facts: facts, trace: true)
      let (enqueue, sentAt) = try sent(decision, request)
      _ = try store.recordDecision(
        DecisionRecord(decision: decision, policy: policy, policySHA256: policySHA256),
        requestId: requestId, enqueue: enqueue, sentAt: sentAt)
      decided += 1
      try attachOutcome(generator, index, request, decision, store)
    }
    _ = try store.checkpoint(waitingForOthers: true)
    return decided
  }

  /// The outbox entry of a decision that responds, delivered as decided (a hold as released an
  /// hour before the deadline), so the outcomes report groups it by the preference sent.
  private static func sent(_ decision: Decision, _ request: RefundRequest) throws(StateError)
    -> (OutboxEnqueue?, Date?)
  {
    let sentAt: Date
    switch decision.action {
    case .respond: sentAt = decision.decidedAt
    case .hold: sentAt = request.deadline.addingTimeInterval(-3_600)
    case .skip: return (nil, nil)
    }
    guard let body = decision.body.map(DecisionReport.bodyJSON) else { return (nil, nil) }
    let enqueue = OutboxEnqueue(
      app: app(request).key, transactionId: request.transactionId ?? "",
      body: try CheckedBody(
        appStore: body, context: ConsumptionValidationContext(transaction: request.transaction)),
      deadline: request.deadline, holdUntil: decision.action == .hold ? sentAt : nil)
    return (enqueue, sentAt)
  }

  /// The app a generated request is of, as recorded with it.
  private static func app(_ request: RefundRequest) -> AppStoreApp {
    AppStoreApp(
      bundleId: request.keys.bundleId ?? "",
      environment: request.notification.data?.environment ?? .production)
  }

  private static func record(_ request: RefundRequest, raw: Data) -> NotificationRecord {
    NotificationRecord(
      notificationUUID: request.notification.notificationUUID ?? UUID().uuidString,
      notificationType: "CONSUMPTION_REQUEST", transactionId: request.transactionId,
      originalTransactionId: request.transaction.originalTransactionId,
      appAccountToken: request.keys.appAccountToken, bundleId: app(request).bundleId,
      environment: app(request).environment.rawValue, receivedAt: request.receivedAt,
      rawNotification: raw,
      summary: .appStore(request.notification, transaction: request.transaction))
  }

  private static func attachOutcome(
    _ generator: PastRequestGenerator, _ index: Int, _ request: RefundRequest, _ decision: Decision,
    _ store: any StateStore
  ) throws {
    var random = GeneratorRandom(seed: generator.seed, stream: 5, index: UInt64(index))
    let chance: Int
    switch (decision.action, decision.body?.refundPreference) {
    case (.skip, _): chance = 45
    case (_, .grantFull?): chance = 85
    case (_, .grantProrated?): chance = 70
    case (_, .decline?): chance = 20
    case (_, nil): chance = 50
    }
    let refunded = random.below(100) < chance
    let uuid = generator.uuid(6, UInt64(index))
    let at = request.receivedAt.addingTimeInterval(Double(3_600 + random.below(2 * 86_400)))
    _ = try store.attachOutcome(
      refunded ? .refund : .refundDeclined, notificationUUID: uuid,
      transactionId: request.transactionId ?? "", app: app(request).key,
      originalTransactionId: nil, appAccountToken: nil, occurredAt: at)
    guard refunded else { return }
    let prorated = decision.body?.refundPreference == .grantProrated && random.below(100) < 60
    try store.recordRevocation(
      notificationUUID: uuid, type: prorated ? "REFUND_PRORATED" : "REFUND_FULL",
      percentage: prorated ? 100_000 - (decision.body?.consumptionPercentage ?? 50_000) : nil)
    if random.below(100) < 4 {
      _ = try store.attachOutcome(
        .refundReversed, notificationUUID: generator.uuid(7, UInt64(index)),
        transactionId: request.transactionId ?? "", app: app(request).key,
        originalTransactionId: nil, appAccountToken: nil,
        occurredAt: at.addingTimeInterval(20 * 86_400))
    }
  }
}
