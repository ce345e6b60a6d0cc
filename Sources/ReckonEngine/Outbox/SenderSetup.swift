import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonState
import ReckonSupport

/// Builds the App Store client and the outbox sender from `reckon.json`, for the CLI and embedders.
public enum SenderSetup {
  /// Why the sender cannot be set up.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// `appStore` is missing from the configuration.
    case noKeyConfigured
    /// The configuration's apps are Google Play's alone, and no service account key is
    /// configured to send their answers with.
    case noGooglePlayKeyConfigured
    /// The key could not be loaded.
    case key(SigningError)
    /// `appStore` is configured, but the embedder gave no transport to send through.
    case noTransport

    /// What to fix.
    public var description: String {
      switch self {
      case .noKeyConfigured:
        "appStore: is required to send replies (issuerId, keyId, privateKeyPath)"
      case .noGooglePlayKeyConfigured:
        "googlePlay.serviceAccountKeyPath: is required to send Google Play answers (the JSON key "
          + "of a service account with access to the Google Play Developer API)"
      case .key(let error): "appStore.privateKeyPath: \(error.description)"
      case .noTransport:
        "appStore: is configured, but no HTTP transport was given to send through "
          + "(pass ReckonHTTP's CurlHTTPClient())"
      }
    }
  }

  /// Loads the configured key and returns a client for Apple's hosts or the configured `baseURL`,
  /// sending through `transport`. A key file any user can read is refused; one its group can read
  /// is loaded with a warning through `warn`.
  public static func client(
    _ configuration: ReckonConfiguration, transport: any HTTPTransport, warn: (String) -> Void
  ) throws(Failure) -> AppStoreAPIClient {
    guard let settings = configuration.appStoreKey else { throw .noKeyConfigured }
    let key: PrivateKey
    do {
      try PrivateKey.refuseIfReadableByOthers(path: settings.privateKeyPath)
      if let warning = PrivateKey.permissionWarning(path: settings.privateKeyPath) { warn(warning) }
      key = try PrivateKey(path: settings.privateKeyPath)
    } catch { throw .key(error) }
    return AppStoreAPIClient(
      issuerId: settings.issuerId, keyId: settings.keyId, key: key,
      baseURL: settings.baseURL.flatMap(URL.init(string:)), transport: transport)
  }

  /// A sender over `store` through `client`, paced and retried as configured, reading consent
  /// again from the configured fact sources before a reply decided a while ago goes out; those
  /// sources report to `facts` (a facts file that fails to reload). A source configured wrongly
  /// throws; one whose file cannot be read now is named through `warn` and opened again at each
  /// consent re-check, and until it opens the replies that need one wait with backoff (fresh
  /// replies, which need none, go out).
  /// Google Play answers go through `answerSender` (see `GooglePlaySetup.client`); without an
  /// App Store `client`, an App Store entry pauses its app, saying why.
  public static func sender(
    _ configuration: ReckonConfiguration, store: any StateStore,
    client: (any ConsumptionSender)?, answerSender: (any ReviewRefundSender)? = nil,
    warn: (String) -> Void = { _ in }, facts: (@Sendable (ReckonEvent) -> Void)? = nil,
    events: @escaping @Sendable (SenderEvent) -> Void
  ) throws(ReckonServiceError) -> OutboxSender {
    let setup: FactSourceSetup
    var googlePlaySetup: FactSourceSetup?
    do {
      if !configuration.googlePlayApps.isEmpty {
        googlePlaySetup = try FactSourceSetup(
          configuration.factSources, events: facts, unavailable: .openLater,
          currencies: configuration.currencies, sourcesStore: .googlePlay,
          alongside: configuration.stores)
      }
      // Sources are read by each configured store's schema, as serve reads them: with Google
      // Play apps alone, by Google's only (a source may give facts Apple's notification gives).
      if configuration.apps.isEmpty, let googlePlaySetup {
        setup = googlePlaySetup
      } else {
        setup = try FactSourceSetup(
          configuration.factSources, events: facts, unavailable: .openLater,
          currencies: configuration.currencies, alongside: configuration.stores)
      }
    } catch {
      throw .configuration(error)
    }
    for source in setup.unopened { warn(source.description) }
    let verifier = NotificationVerifier(
      apps: configuration.apps.map {
        AcceptedApp(bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment)
      }, roots: try ReckonService.roots(configuration.trust),
      unverifiedEnvironments: ReckonService.unverifiedEnvironments(configuration.trust))
    let records = StateHistoryFacts(store: store)
    let consentCheck = GatheredConsentCheck(
      store: store, verifier: verifier, gatherer: setup.gatherer(records: records),
      googlePlayGatherer: googlePlaySetup.map {
        FactGatherer(
          schema: setup.schema.schema(for: .googlePlay), layers: $0.layers, records: records)
      })
    return OutboxSender(
      store: store, sender: client ?? UnconfiguredAppStoreSender(),
      configuration: configuration.sender, consentCheck: consentCheck,
      answerSender: answerSender, apps: configuration.appKeys, events: events)
  }

  /// What an earlier sender left in force that holds sends back now: an app paused after a
  /// credentials problem, or rate-limited by Apple; and, with `apps` (the apps this sender
  /// sends for), replies waiting for an app it does not send for. One warning each, for the
  /// start-up log, so a restart after fixing the key does not seem to do nothing.
  public static func carriedOver(
    _ store: any StateStore, apps: Set<AppKey>? = nil, now: Date = Date()
  ) throws(StateError) -> [String] {
    let pauses = try store.pauses().filter { $0.until > now }.map {
      "\($0.app) is paused until \(SenderEvent.time($0.until)) after a credentials problem "
        + "an earlier sender met (\($0.reason)); its replies wait until then, and one goes out "
        + "first to try"
    }
    let throttles = try store.throttles(now: now).sorted { $0.key.description < $1.key.description }
      .map {
        "\($0.key) was rate-limited by \(SenderEvent.storeName($0.key)) until "
          + "\(SenderEvent.time($0.value)); its replies "
          + "wait until then"
      }
    var others: [AppKey: Int] = [:]
    if let apps {
      for entry in try store.entries(states: ["held", "pending"], limit: 10_000)
      where !apps.contains(entry.app) {
        others[entry.app, default: 0] += 1
      }
    }
    let unsent = others.sorted { $0.key.description < $1.key.description }.map {
      "\($0.value) repl\($0.value == 1 ? "y waits" : "ies wait") for \($0.key), which this "
        + "configuration does not name: this sender leaves \($0.value == 1 ? "it" : "them") to "
        + "one configured for it, and expires \($0.value == 1 ? "it" : "them") at the deadline "
        + "(reckon queue drop ID drops one now)"
    }
    return pauses + throttles + unsent
  }
}
