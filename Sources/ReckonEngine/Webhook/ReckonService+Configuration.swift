import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonState
import ReckonSupport

extension ReckonService {
  /// The service `reckon.json` describes: its apps and policies (loaded and checked now), fact
  /// sources, the state `state` opens (ReckonStateSQLite's `SQLiteStateOpener()` for a
  /// `state.path`), trusted roots and, when `appStore` is configured, the sender. A
  /// fact source configured wrongly throws; one whose file cannot be read now is named through
  /// `warn` and opened again at each lookup, its requests kept for `retryUndecided` meanwhile.
  /// `factSources` of your own are asked before the configured ones (the first that supplies a
  /// fact wins; a custom fact they supply must be declared in `reckon.json`), and a `sender` of
  /// your own replaces the one `appStore` would configure, which sends through `transport`
  /// (ReckonHTTP's `CurlHTTPClient`, or one of your own).
  public convenience init(
    configuration: ReckonConfiguration, state opener: any StateOpener,
    transport: (any HTTPTransport)?,
    factSources own: [LayeredFactSource.Layer] = [],
    sender ownSender: (any ConsumptionSender)? = nil, warn: (String) -> Void = { _ in },
    events: @escaping @Sendable (ReckonEvent) -> Void = { _ in }
  ) throws(ReckonServiceError) {
    // Sources are read by each store's schema; with Google Play apps alone, by Google's only.
    var setups: [FactSchema.Store: FactSourceSetup] = [:]
    for store in configuration.stores {
      do {
        setups[store] = try FactSourceSetup(
          configuration.factSources, events: events, unavailable: .openLater,
          currencies: configuration.currencies, sourcesStore: store,
          alongside: configuration.stores)
      } catch {
        throw .configuration(error)
      }
    }
    let setup = setups[.appStore] ?? setups[.googlePlay]!
    for source in setup.unopened { warn(source.description) }
    for warning in configuration.permissionWarnings() { warn(warning) }
    // Your own sender, if given, replaces the configured one, whose key is then not loaded.
    var client = ownSender
    if client == nil, configuration.appStoreKey != nil {
      guard let transport else { throw .sender(.noTransport) }
      do { client = try SenderSetup.client(configuration, transport: transport, warn: warn) } catch
      {
        throw .sender(error)
      }
    } else if client == nil, !configuration.apps.isEmpty {
      warn("appStore is not configured: replies are decided and queued but not sent")
    }
    let googlePlay = try Self.googlePlayParts(
      configuration, transport: transport,
      factSources: setups[.googlePlay].map { own + $0.layers },
      usageEvents: setups[.googlePlay]?.usageEvents ?? [], warn: warn)
    // A policy file that cannot be read is named by its key, like every other start-up problem
    // in reckon.json; one that reads but does not check gets check's diagnostics below.
    let policies =
      configuration.apps.enumerated().map { ("apps[\($0.offset)].policy", $0.element.policyPath) }
      + configuration.googlePlayApps.map { ("apps (\($0.packageName)).policy", $0.policyPath) }
    for (key, path) in policies {
      do throws(LocalFileError) {
        _ = try LocalFile.data(at: path, limit: configuration.fileLimits.policy)
      } catch {
        throw .configuration(ConfigurationError(key, "\(path): \(error.reason)"))
      }
    }
    let unverified = Self.unverifiedEnvironments(configuration.trust)
    for environment in Self.sorted(unverified) {
      let key = environment == .xcode ? "trust.allowXcode" : "trust.allowLocalTesting"
      warn(
        "warning: \(key) is on: \(environment.rawValue) notifications, which Apple does not "
          + "sign, are accepted and decided; keep it off outside development")
    }
    let apps = configuration.apps.map {
      App(
        bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment,
        policy: .file($0.policyPath))
    }
    _ = try Self.policySources(apps: apps, keepDays: configuration.stateKeepDays)
    let store: any StateStore
    do {
      store = try opener.open(
        location: configuration.stateLocation, durability: configuration.stateDurability,
        rules: .stores)
    } catch {
      throw .state(error)
    }
    try self.init(
      apps: apps,
      factSources: own + setup.layers, schema: setup.schema,
      state: store,
      roots: try Self.roots(configuration.trust), unverifiedEnvironments: unverified,
      sender: client, senderConfiguration: configuration.sender,
      keepDays: configuration.stateKeepDays, policyFileLimit: configuration.fileLimits.policy,
      googlePlay: googlePlay, events: events)
  }

  /// The Google Play parts `googlePlay` and the Google Play apps describe; nil without such
  /// apps.
  static func googlePlayParts(
    _ configuration: ReckonConfiguration, transport: (any HTTPTransport)?,
    factSources: [LayeredFactSource.Layer]?, usageEvents: [UsageEventLayer],
    warn: (String) -> Void
  ) throws(ReckonServiceError) -> GooglePlayParts? {
    guard !configuration.googlePlayApps.isEmpty, let settings = configuration.googlePlay else {
      return nil
    }
    do throws(GooglePlaySetup.Failure) {
      let keys = try GooglePlaySetup.keys(settings, transport: transport)
      if settings.refreshKeys, let cache = settings.keysFile {
        let folder = URL(fileURLWithPath: cache).deletingLastPathComponent().path
        if !FileManager.default.isWritableFile(atPath: folder) {
          warn(
            "googlePlay.push.keysFile: Google's keys cannot be kept in \(cache) (its folder "
              + "\(folder) is missing or not writable): a restart without the network would "
              + "verify no push")
        }
      }
      let client = try GooglePlaySetup.client(settings, transport: transport)
      if client == nil {
        warn(
          "googlePlay.serviceAccountKeyPath is not configured: Google Play answers are decided "
            + "and queued but not sent")
      }
      return GooglePlayParts(
        apps: configuration.googlePlayApps.map {
          GooglePlayApp(packageName: $0.packageName, policy: .file($0.policyPath))
        }, verifier: GooglePlaySetup.verifier(settings, keys: keys), answerSender: client,
        factSources: factSources, usageEvents: usageEvents)
    } catch {
      throw .googlePlay(error)
    }
  }

  /// `environments` in a stable order, by Apple's spelling.
  static func sorted(_ environments: Set<AppStoreEnvironment>) -> [AppStoreEnvironment] {
    environments.sorted { $0.rawValue < $1.rawValue }
  }

  /// The environments whose notifications come unsigned (Xcode, local testing) when allowed.
  static func unverifiedEnvironments(_ trust: TrustConfiguration) -> Set<AppStoreEnvironment> {
    var unverified: Set<AppStoreEnvironment> = []
    if trust.allowXcode { unverified.insert(.xcode) }
    if trust.allowLocalTesting { unverified.insert(.localTesting) }
    return unverified
  }

  /// The configured roots, or Apple Root CA - G3 when none are, loaded as the service loads them.
  public static func roots(_ trust: TrustConfiguration) throws(ReckonServiceError)
    -> [X509Certificate]
  {
    guard !trust.rootCertificatePaths.isEmpty else { return AppleRootCertificates.defaultRoots() }
    var roots: [X509Certificate] = []
    for path in trust.rootCertificatePaths {
      let data: Data
      do throws(LocalFileError) { data = try LocalFile.data(at: path, limit: .secret) } catch {
        throw .root(path: path, reason: error.reason)
      }
      guard let certificate = X509Certificate(pemOrDER: data) else {
        throw .root(path: path, reason: "is not a PEM or DER certificate")
      }
      // Every notification would be refused as untrusted; the file named is the mistake.
      guard certificate.isCertificateAuthority else {
        throw .root(
          path: path,
          reason:
            "is not a CA certificate (\(certificate.subject)); name the root the chain ends at")
      }
      roots.append(certificate)
    }
    return roots
  }
}

/// Why a `ReckonService` could not start. Each names what to fix.
public enum ReckonServiceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The configuration is invalid.
  case configuration(ConfigurationError)
  /// The state database cannot be opened.
  case state(StateError)
  /// A policy does not check.
  case policy(PolicyBook.Refusal)
  /// The App Store key cannot be loaded.
  case sender(SenderSetup.Failure)
  /// A trusted root certificate cannot be read.
  case root(path: String, reason: String)
  /// Google Play's parts cannot be set up.
  case googlePlay(GooglePlaySetup.Failure)

  /// One sentence (and the diagnostics, for a policy).
  public var description: String {
    switch self {
    case .configuration(let error): error.description
    case .state(let error): error.description
    case .policy(let refusal): refusal.description
    case .sender(let failure): failure.description
    case .root(let path, let reason): "trust.roots: \(path): \(reason)"
    case .googlePlay(let failure): failure.description
    }
  }
}
