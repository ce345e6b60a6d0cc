import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonGooglePlay
import ReckonState
import ReckonSupport
import Synchronization

/// Reckon behind one call: give it the raw body of Apple's POST, answer with what it returns.
/// The whole pipeline is underneath (verify, record once, gather facts, decide, validate,
/// enqueue), and `run()` runs what goes on beside it (the sender, retries, policy reloads,
/// pruning) until cancelled. Build it from `reckon.json` or from
/// parts (your own `FactSource`, your own `ConsumptionSender`). See docs/embedding.md.
public final class ReckonService: Sendable {
  /// One app Reckon answers for, with the policy that decides its requests.
  public struct App: Sendable {
    /// The bundle id, App Apple ID and environment notifications must carry.
    public var accepted: AcceptedApp
    /// Where its policy comes from.
    public var policy: PolicyBook.Source

    /// An app and its policy.
    public init(
      bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment,
      policy: PolicyBook.Source
    ) {
      self.accepted = AcceptedApp(
        bundleId: bundleId, appAppleId: appAppleId, environment: environment)
      self.policy = policy
    }
  }

  /// One Google Play app Reckon answers chargeback reviews for, with its policy.
  public struct GooglePlayApp: Sendable {
    /// The package name reviews must carry.
    public var packageName: String
    /// Where its policy comes from (checked against Google Play's words).
    public var policy: PolicyBook.Source

    /// An app and its policy.
    public init(packageName: String, policy: PolicyBook.Source) {
      self.packageName = packageName
      self.policy = policy
    }
  }

  /// What the service needs to take Google Play's pushes and answer them.
  public struct GooglePlayParts: Sendable {
    /// The apps.
    public var apps: [GooglePlayApp]
    /// Checks each push's token.
    public var verifier: PushTokenVerifier
    /// Sends the answers; nil queues them unsent.
    public var answerSender: (any ReviewRefundSender)?
    /// The fact sources reviews are decided on; nil asks the App Store's.
    public var factSources: [LayeredFactSource.Layer]?
    /// Where each answer's usage events come from.
    public var usageEvents: [UsageEventLayer]

    /// The parts.
    public init(
      apps: [GooglePlayApp], verifier: PushTokenVerifier,
      answerSender: (any ReviewRefundSender)? = nil,
      factSources: [LayeredFactSource.Layer]? = nil, usageEvents: [UsageEventLayer] = []
    ) {
      self.usageEvents = usageEvents
      self.apps = apps
      self.verifier = verifier
      self.answerSender = answerSender
      self.factSources = factSources
    }
  }

  /// The pipeline every App Store notification goes through.
  public let pipeline: NotificationPipeline
  /// The pipeline every Google Play push goes through; nil without Google Play apps.
  public var googlePlay: GooglePlayPipeline? { pipeline.googlePlay }
  /// The state: the notification log, decisions, the outbox and what senders share.
  public let store: any StateStore
  /// The outbox sender, when a `ConsumptionSender` or `ReviewRefundSender` was given, or an App
  /// Store key or a Google Play service account configured.
  public let sender: OutboxSender?
  /// Reads consent again before a reply decided a while ago goes out.
  public let consentCheck: GatheredConsentCheck
  /// How many days of records `pruneOldRecords` keeps; nil keeps everything.
  public let keepDays: Int?
  /// The loops of `run()` that stopped on an error.
  let loopsStopped = StoppedLoops()
  /// Whether `run()` last reported this instance as leading.
  let leads = Mutex<Bool?>(nil)
  /// When this service was made: every request received before was received by another (an
  /// earlier process), so `run()`'s start-up pass may decide it.
  let createdAt = Date()

  /// The loops of `run()` that stopped on an error (`sender`, `retry`, `policy-watch`), in the
  /// order they did: a health check reports them, as a restart brings them back.
  public var stoppedLoops: [String] { loopsStopped.all }

  /// The environments whose notifications are accepted unsigned, by Apple's spelling: a
  /// development setting that `/healthz` and `/metrics` show while it is on.
  public var unsignedEnvironments: [AppStoreEnvironment] {
    Self.sorted(pipeline.verifier.unverifiedEnvironments)
  }

  /// The fact sources hung now, either store's, each once in layer order: each one's latest
  /// lookup ran out of time, or one that did has not returned. Requests that need their facts
  /// wait until they answer again.
  public var hungFactSources: [String] { Self.once(factSources.flatMap(\.hungSources)) }

  /// The fact sources whose latest lookup failed (a facts file missing or refused, a
  /// database that does not open), either store's, each once in layer order. Requests that
  /// need their facts wait until a lookup succeeds again.
  public var failingFactSources: [String] { Self.once(factSources.flatMap(\.failingSources)) }

  /// Whether each fact source, either store's, is hung now, by name.
  public var factSourcesHung: [String: Bool] {
    Dictionary(
      factSources.flatMap(\.layers).map { ($0.source.name, $0.isHung) },
      uniquingKeysWith: { $0 || $1 })
  }

  /// Each store's fact sources: the App Store's, then Google Play's when it has its own.
  private var factSources: [LayeredFactSource] {
    [pipeline.gatherer.sources] + (pipeline.googlePlay.map { [$0.gatherer.sources] } ?? [])
  }

  /// `names` with each name kept at its first place only.
  private static func once(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }

  /// The live policies, for reloading.
  public var policies: PolicyBook { pipeline.policies }

  /// A service from parts, over `state` (such as ReckonStateSQLite's `SQLiteStateStore`, opened
  /// with `backgroundCheckpoints` for a long-running service). `factSources` are asked in order
  /// (the first that supplies a fact wins); `schema` declares any custom facts they supply;
  /// `roots` default to Apple Root CA - G3; without `sender` replies are queued but not sent.
  public init(
    apps: [App], factSources: [LayeredFactSource.Layer], schema: FactSchema = .standard,
    state store: any StateStore, roots: [X509Certificate] = AppleRootCertificates.defaultRoots(),
    unverifiedEnvironments: Set<AppStoreEnvironment> = [],
    sender: (any ConsumptionSender)? = nil,
    senderConfiguration: SenderConfiguration = .standard, keepDays: Int? = nil,
    policyFileLimit: FileSizeLimit = .policy, googlePlay: GooglePlayParts? = nil,
    events: @escaping @Sendable (ReckonEvent) -> Void = { _ in }
  ) throws(ReckonServiceError) {
    guard !apps.isEmpty || googlePlay?.apps.isEmpty == false else {
      throw .configuration(
        ConfigurationError(
          "apps", "must list at least one app: without one, every notification is refused"))
    }
    try Self.checkLayers(factSources, key: "factSources")
    try Self.checkLayers(googlePlay?.factSources ?? [], key: "googlePlay factSources")
    var sources = try Self.policySources(apps: apps, keepDays: keepDays)
      .reduce(into: [AppKey: PolicyBook.Source]()) { $0[$1.key.key] = $1.value }
    for (index, app) in (googlePlay?.apps ?? []).enumerated() {
      let key = AppKey(bundleId: app.packageName, environment: GooglePlayStore.environment)
      guard sources[key] == nil else {
        throw .configuration(
          ConfigurationError(
            "googlePlay apps[\(index)]",
            "\(app.packageName) is listed twice; give each package one policy"))
      }
      sources[key] = app.policy
    }
    self.keepDays = keepDays
    let policies: PolicyBook
    do {
      policies = try PolicyBook(
        apps: sources, schema: schema, fileLimit: policyFileLimit, archive: store)
    } catch { throw .policy(error) }
    policies.live().forEach(events)
    let records = StateHistoryFacts(store: store)
    let gatherer = FactGatherer(schema: schema, layers: factSources, records: records)
    let googlePlayGatherer = googlePlay.map {
      FactGatherer(
        schema: policies.googlePlaySchema, layers: $0.factSources ?? factSources, records: records,
        usageEvents: $0.usageEvents)
    }
    let hold = senderConfiguration.holdReleaseBeforeDeadlineSeconds
    // One book for both stores' pipelines and the sender: a request's retries and sends log
    // under the id it arrived with.
    let requestLogs = RequestLogBook()
    self.store = store
    self.pipeline = NotificationPipeline(
      verifier: NotificationVerifier(
        apps: apps.map(\.accepted), roots: roots, unverifiedEnvironments: unverifiedEnvironments),
      store: store, policies: policies, gatherer: gatherer,
      holdReleaseBeforeDeadline: hold,
      googlePlay: googlePlay.map { parts in
        GooglePlayPipeline(
          verifier: parts.verifier, packages: Set(parts.apps.map(\.packageName)), store: store,
          policies: policies, gatherer: googlePlayGatherer!, holdReleaseBeforeDeadline: hold,
          requestLogs: requestLogs, events: events)
      }, requestLogs: requestLogs,
      events: events)
    // Consent is one fact: its re-check asks no source of usage events.
    let consentCheck = GatheredConsentCheck(
      store: store, verifier: pipeline.verifier, gatherer: gatherer,
      googlePlayGatherer: googlePlayGatherer.map {
        FactGatherer(schema: $0.schema, layers: $0.sources.layers, records: records)
      })
    self.consentCheck = consentCheck
    let answerSender = googlePlay?.answerSender
    if sender != nil || answerSender != nil {
      self.sender = OutboxSender(
        store: store, sender: sender ?? UnconfiguredAppStoreSender(),
        configuration: senderConfiguration, consentCheck: consentCheck,
        answerSender: answerSender, requestLogs: requestLogs, apps: Set(sources.keys),
        events: { events(.sender($0)) })
    } else {
      self.sender = nil
    }
  }

  /// Refuses fact sources that reckon.json would refuse: two of one name (a fact's provenance
  /// names one), a name Reckon gives its own facts, or a timeout that is not above zero.
  static func checkLayers(_ layers: [LayeredFactSource.Layer], key: String)
    throws(ReckonServiceError)
  {
    var names: Set<String> = []
    for (index, layer) in layers.enumerated() {
      let name = layer.source.name
      var problem: String?
      if !names.insert(name).inserted {
        problem = "'\(name)' is used by another fact source"
      } else if ReckonConfiguration.reservedSourceNames.contains(name) {
        problem = ReckonConfiguration.reservedNameProblem(name)
      } else if layer.timeout <= .zero {
        problem = "'\(name)' has a timeout of \(layer.timeout): it must be above zero"
      }
      if let problem { throw .configuration(ConfigurationError("\(key)[\(index)]", problem)) }
    }
  }

  /// Each app's policy source, once `apps` and `keepDays` are found sound: each app and
  /// environment listed once, Production's with its App Apple ID. What reckon.json refuses is
  /// refused from parts too, and before any state is opened.
  static func policySources(apps: [App], keepDays: Int?) throws(ReckonServiceError)
    -> [AppStoreApp: PolicyBook.Source]
  {
    if let keepDays {
      do throws(ConfigurationError) {
        _ = try ReckonConfiguration.checkedKeepDays(Double(keepDays))
      } catch {
        throw .configuration(error)
      }
    }
    var sources: [AppStoreApp: PolicyBook.Source] = [:]
    for (index, app) in apps.enumerated() {
      let key = AppStoreApp(bundleId: app.accepted.bundleId, environment: app.accepted.environment)
      guard sources[key] == nil else {
        throw .configuration(
          ConfigurationError(
            "apps[\(index)]", "\(key) is listed twice; give each app and environment one policy"))
      }
      guard app.accepted.environment != .production || app.accepted.appAppleId != nil else {
        throw .configuration(
          ConfigurationError(
            "apps[\(index)].appAppleId",
            "is required in Production: Apple's notifications carry it, and it is checked"))
      }
      sources[key] = app.policy
    }
    return sources
  }

  /// Removes the records of notifications received more than `keepDays` days before `now`
  /// from the state database (see `SQLiteStateStore.prune`), reporting `pruned` when it removed
  /// anything and `pruneFailed` when it could not;
  /// does nothing without `keepDays`. Blocks for as long as that takes: call it from a thread
  /// of your own, not the concurrency pool, whose threads the webhook needs. `stop` is asked
  /// between its transactions, to end early when the service stops.
  @discardableResult
  public func pruneOldRecords(now: Date = Date(), stop: () -> Bool = { false }) -> PruneCounts? {
    guard let keepDays else { return nil }
    let cutoff = now.addingTimeInterval(-Double(keepDays) * 86_400)
    do {
      let removed = try store.prune(before: cutoff, now: now, dryRun: false, stop: stop)
      if !removed.isEmpty { pipeline.events(.pruned(before: cutoff, removed: removed)) }
      return removed
    } catch {
      pipeline.events(.pruneFailed(reason: error.description))
      return nil
    }
  }

  /// Handles the raw POST body and returns the HTTP status and body to answer Apple with.
  public func handleNotification(body: Data) async -> (status: Int, body: Data) {
    let answer = await answer(body: body)
    return (answer.status, answer.body)
  }

  /// Whether App Store notifications are answered: false for a service of Google Play apps
  /// alone, whose App Store webhook is no route.
  public var answersAppStore: Bool { pipeline.verifier.acceptsAnyApp }

  /// Like `handleNotification(body:)`, with what became of the notification; `client`, the
  /// address it came from, goes into the `answered` event. Refused with 404 when no App Store
  /// app is configured, as a Google Play push is without Google Play apps.
  public func answer(body: Data, from client: String? = nil) async -> WebhookAnswer {
    guard answersAppStore else {
      return WebhookAnswer(
        status: 404, type: nil, verdict: .refused,
        fields: ["error": "no App Store app is configured"])
    }
    return await pipeline.handle(body: body, client: client)
  }

  /// Like `answer(body:from:)`, with every log line of the request carrying `requestId` (the
  /// `X-Request-Id` header a proxy in front sent) when it is one a proxy would make, else a new
  /// id; the answer's `correlationId` says which, for the response's `X-Request-Id`.
  public func answer(body: Data, from client: String? = nil, requestId: String?) async
    -> WebhookAnswer
  {
    await RequestLogContext.$current.withValue(Self.logContext(requestId)) {
      await answer(body: body, from: client)
    }
  }

  /// Handles one Google Play push (its body and `Authorization` header) and says what to
  /// answer; refused with 404 when no Google Play app is configured. `requestId` is taken as
  /// `answer(body:from:requestId:)` takes it.
  public func answerGooglePlay(
    body: Data, authorization: String?, from client: String? = nil, requestId: String? = nil
  ) async -> WebhookAnswer {
    guard let googlePlay else {
      return WebhookAnswer(
        status: 404, type: nil, verdict: .refused,
        fields: ["error": "no Google Play app is configured"])
    }
    return await RequestLogContext.$current.withValue(Self.logContext(requestId)) {
      await googlePlay.handle(body: body, authorization: authorization, client: client)
    }
  }

  /// The log context of a request that came with the header `requestId`.
  static func logContext(_ requestId: String?) -> RequestLogContext {
    RequestLogContext.acceptedId(requestId).map { RequestLogContext(id: $0) }
      ?? RequestLogContext()
  }

  /// Delivers queued replies until `isStopped` (a no-op without a sender), checking for new
  /// entries every `pollInterval` seconds, holding the state's sender lease throughout (for the
  /// SQLite state, its `SenderLock`).
  ///
  /// When another sender holds the lock (another process, another service on the same state
  /// database, `reckon send`), it throws `SenderLockError.heldByAnotherSender` at once and sends
  /// nothing. It does not wait for the lock: a sender that silently waits looks healthy while it
  /// never sends, which hides a second sender configured by mistake (a cron `reckon send` beside
  /// an embedded one); `reckon serve` and `reckon send` refuse to start in the same case. A
  /// process meant as a standby catches the error and calls again later. `lock`, when given, is
  /// one already taken for this state database (as `reckon serve` takes it at start-up); one
  /// already released or taken for another state is refused (`SenderLockError.notHeld`).
  /// Either way the lock it runs with is released when the run ends, by `isStopped` or by an
  /// error (a lock refused as `notHeld` is not its own, and is left as it is).
  public func runSender(
    pollInterval: TimeInterval = 0.25, holding lock: (any SenderLease)? = nil,
    isStopped: @escaping @Sendable () -> Bool
  )
    async throws
  {
    guard let sender else {
      lock?.release()
      return
    }
    // A released lock (a second run handed the same one) or another state's keeps no other
    // sender away: refused rather than sending unguarded.
    if let lock, !store.isOwnLease(lock) { throw SenderLockError.notHeld(path: lock.name) }
    let held = try lock ?? store.takeSenderLease()
    defer { held.release() }
    try await sender.run(pollInterval: pollInterval, holding: held, isStopped: isStopped)
  }

  /// Decides requests left undecided by a failed fact source or a stop, received more than
  /// `age` seconds ago and still before their deadline, at most 100 a call, one after another;
  /// returns how many; once `isStopped`, no further request is taken up.
  @discardableResult
  public func retryUndecided(
    olderThan age: TimeInterval = 1, isStopped: @Sendable () -> Bool = { false }
  ) async -> Int {
    await pipeline.retryUndecided(olderThan: age, isStopped: isStopped)
  }

  /// Hands `event` to the service's event handler, as its own events are (the webhook server
  /// reports requests it refused before the pipeline saw them).
  public func report(_ event: ReckonEvent) {
    pipeline.events(event)
  }

  /// Re-reads changed policy files (all with `force`); ones that fail `check` are refused and
  /// their previous version stays live. Returns what happened, also passed to the event handler.
  @discardableResult
  public func reloadPolicies(force: Bool = false) -> [ReckonEvent] {
    let events = policies.reload(force: force)
    events.forEach(pipeline.events)
    return events
  }
}

extension SenderConfiguration {
  /// The documented defaults: 50/s in Production, 5/s in Sandbox, holds released an hour before
  /// the deadline, backoff from 30 s to 30 min.
  public static var standard: SenderConfiguration {
    // The reader-less init cannot fail: every key takes its default.
    try! SenderConfiguration(nil)
  }
}
