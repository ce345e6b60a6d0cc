import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy
import ReckonState
import ReckonSupport

/// Everything `reckon.json` configures: the apps and their policies, fact sources, the state
/// database, the App Store key, the sender, the listener and the trusted roots. Relative paths
/// are resolved against the configuration file's folder. See docs/configuration.md.
public struct ReckonConfiguration: Sendable {
  /// The App Store apps Reckon answers for.
  public var apps: [AppConfiguration]
  /// The Google Play apps Reckon answers chargeback reviews for (`apps` entries with
  /// `"store": "googlePlay"`).
  public var googlePlayApps: [GooglePlayAppConfiguration] = []
  /// How Google Play's pushes are taken and answered; required with a Google Play app.
  public var googlePlay: GooglePlayConfiguration?
  /// The fact sources, in precedence order (the first that supplies a fact wins).
  public var factSources: [FactSourceConfiguration]
  /// Where the state (requests, decisions, outbox) is: an SQLite file's path (`state.path`) or
  /// a PostgreSQL database's `postgres://` address (`state.url`).
  public var stateLocation: String
  /// The file the PostgreSQL password is read from (`state.passwordFile`), if one is named.
  public var statePasswordFile: String?
  /// Whether the state is a PostgreSQL database's address rather than an SQLite file's path.
  public var stateIsDatabaseServer: Bool { Self.isDatabaseAddress(stateLocation) }

  /// Whether `location` is a PostgreSQL address (`postgres://` or `postgresql://`).
  static func isDatabaseAddress(_ location: String) -> Bool {
    location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
  }
  /// How many days of records `reckon serve` keeps in the state database, pruning older ones
  /// once a day (`state.keepDays`); nil keeps everything.
  public var stateKeepDays: Int?
  /// How hard each commit to the state database is pushed to disk (`state.durability`).
  public var stateDurability: StateDurability = .normal
  /// The App Store Connect API key, when replies are sent.
  public var appStoreKey: AppStoreKeyConfiguration?
  /// How the sender behaves.
  public var sender: SenderConfiguration
  /// Where `reckon serve` listens.
  public var server: ServerConfiguration
  /// Which certificates notifications must chain to, and which test environments are accepted.
  public var trust: TrustConfiguration
  /// The largest policy and facts files read.
  public var fileLimits = FileLimitsConfiguration()
  /// What one unit of each currency is worth in a common unit (`currencies`), so money in one
  /// currency compares with money in another; empty compares within one currency only.
  public var currencies = CurrencyRates.none
  /// The folder relative paths were resolved against.
  public var baseDirectory: String
  /// The file it was loaded from; nil when it was built from parsed JSON.
  public var path: String?

  /// Loads and validates the configuration at `path`.
  public static func load(path: String) throws(ConfigurationError) -> ReckonConfiguration {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.json(at: path) } catch {
      throw ConfigurationError(path, error.reason)
    }
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw ConfigurationError(
        error.place(in: data, path: path),
        "is not valid JSON: \(error.reason)" + (error.excerpt(in: data).map { "\n" + $0 } ?? ""))
    }
    guard let root = parsed.objectValue else {
      throw ConfigurationError(path, "is not a JSON object")
    }
    let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: base)
    configuration.path = path
    return configuration
  }

  /// `currencies`: an object of ISO 4217 codes to the worth of one unit in a common unit, each a
  /// positive number (`{"USD": 1, "EUR": 1.08}`).
  private static func currencies(_ reader: ConfigurationReader?) throws(ConfigurationError)
    -> CurrencyRates
  {
    guard let reader else { return .none }
    var rates: [String: Double] = [:]
    for code in reader.members.keys.sorted() {
      guard CurrencyCodes.isKnown(code) else {
        let hint = CurrencyCodes.suggestion(for: code).map { " (did you mean \($0)?)" } ?? ""
        throw ConfigurationError(reader.keyPath(code), "is not an ISO 4217 currency code\(hint)")
      }
      guard let rate = try reader.optionalNumber(code), rate.isFinite, rate > 0 else {
        throw ConfigurationError(
          reader.keyPath(code),
          "must be a positive number: what one \(code) is worth in the common unit")
      }
      rates[code] = rate
    }
    return CurrencyRates(rates)
  }

  /// Every app the configuration names, of either store, as the state keys them.
  public var appKeys: Set<AppKey> {
    Set(
      apps.map { AppStoreApp(bundleId: $0.bundleId, environment: $0.environment).key }
        + googlePlayApps.map {
          AppKey(bundleId: $0.packageName, environment: GooglePlayStore.environment)
        })
  }

  /// A warning for the configuration file and for each policy file any user may write: whoever
  /// can change them changes what Reckon trusts and which refunds it asks for.
  public func permissionWarnings() -> [String] {
    var warnings: [String] = []
    let files =
      (path.map { [($0, "what Reckon trusts and sends")] } ?? [])
      + apps.map { ($0.policyPath, "the refunds Reckon asks for") }
      + googlePlayApps.map { ($0.policyPath, "the refunds Reckon asks for") }
    var seen: Set<String> = []
    for (file, what) in files where seen.insert(file).inserted {
      guard let mode = LocalFile.permissions(at: file), mode & 0o002 != 0 else { continue }
      warnings.append(
        "warning: \(file) can be written by any user (mode \(String(mode & 0o777, radix: 8))), "
          + "who could change \(what); run chmod o-w on it")
    }
    return warnings
  }

  /// Validates a parsed configuration; `baseDirectory` anchors relative paths.
  public init(_ reader: ConfigurationReader, baseDirectory: String) throws(ConfigurationError) {
    try reader.rejectUnknownKeys([
      "apps", "factSources", "state", "appStore", "googlePlay", "sender", "server", "trust",
      "limits", "currencies",
    ])
    let resolve: @Sendable (String) -> String = { path in
      ReckonConfiguration.resolve(path, against: baseDirectory)
    }
    self.baseDirectory = baseDirectory
    var apps: [AppConfiguration] = []
    var googlePlayApps: [GooglePlayAppConfiguration] = []
    var packageEntries: [String: Int] = [:]
    for (index, app) in try reader.objects("apps").enumerated() {
      let store = try app.optionalString("store")
      switch store ?? "appStore" {
      case "appStore":
        // The other store's key for the app names the slip: the store left out, or the wrong one.
        if try app.optionalString("packageName") != nil {
          throw ConfigurationError(
            app.keyPath("packageName"),
            store == nil
              ? "is a Google Play app's key: add \"store\": \"googlePlay\" to this app (an App "
                + "Store app names its bundleId)"
              : "is a Google Play app's key, and this app's store is appStore, which names its "
                + "bundleId")
        }
      case "googlePlay":
        if try app.optionalString("bundleId") != nil {
          throw ConfigurationError(
            app.keyPath("bundleId"),
            "is an App Store app's key, and this app's store is googlePlay, which names its "
              + "packageName")
        }
        let configured = try GooglePlayAppConfiguration(app, resolve: resolve)
        if let earlier = packageEntries[configured.packageName] {
          throw ConfigurationError(
            "apps[\(index)]",
            "package '\(configured.packageName)' is already configured by apps[\(earlier)]; each package may be listed once"
          )
        }
        packageEntries[configured.packageName] = index
        googlePlayApps.append(configured)
        continue
      case let other:
        throw ConfigurationError(
          app.keyPath("store"), "is appStore or googlePlay, not \"\(other)\"")
      }
      let configured = try AppConfiguration(app, resolve: resolve)
      // A request is matched to its app by bundle id and environment: two entries would make
      // one of them silently unused.
      if let earlier = apps.firstIndex(where: {
        $0.bundleId == configured.bundleId && $0.environment == configured.environment
      }) {
        throw ConfigurationError(
          "apps[\(index)]",
          "bundle id '\(configured.bundleId)' in \(configured.environment.rawValue) is already configured by apps[\(earlier)]; each app and environment may be listed once"
        )
      }
      apps.append(configured)
    }
    guard !apps.isEmpty || !googlePlayApps.isEmpty else {
      throw ConfigurationError("apps", "must list at least one app")
    }
    self.apps = apps
    self.googlePlayApps = googlePlayApps
    self.googlePlay = try reader.object("googlePlay").map { reader throws(ConfigurationError) in
      try GooglePlayConfiguration(reader, resolve: resolve)
    }
    if !googlePlayApps.isEmpty, googlePlay == nil {
      throw ConfigurationError(
        "googlePlay",
        "is required with a Google Play app: its push subscription's audience and service account, without which no review can be verified"
      )
    }
    var sources: [FactSourceConfiguration] = []
    for source in try reader.objects("factSources") {
      let configured = try FactSourceConfiguration(source, resolve: resolve)
      if sources.contains(where: { $0.name == configured.name }) {
        throw ConfigurationError(
          source.keyPath("name"), "'\(configured.name)' is used by another fact source")
      }
      if Self.reservedSourceNames.contains(configured.name) {
        throw ConfigurationError(source.keyPath("name"), Self.reservedNameProblem(configured.name))
      }
      sources.append(configured)
    }
    self.factSources = sources
    let state = try reader.object("state")
    try state?.rejectUnknownKeys(["path", "url", "passwordFile", "keepDays", "durability"])
    (stateLocation, statePasswordFile) = try Self.stateLocation(state, resolve: resolve)
    if let durability = try state?.optionalString("durability") {
      guard let chosen = StateDurability(rawValue: durability.uppercased()),
        durability == durability.lowercased()
      else {
        throw ConfigurationError(
          state!.keyPath("durability"), "is \"normal\" or \"full\", not \"\(durability)\"")
      }
      self.stateDurability = chosen
    }
    self.stateKeepDays = try state.flatMap { state throws(ConfigurationError) in
      try Self.keepDays(state)
    }
    self.appStoreKey = try reader.object("appStore").map { reader throws(ConfigurationError) in
      try AppStoreKeyConfiguration(reader, resolve: resolve)
    }
    self.sender = try SenderConfiguration(reader.object("sender"))
    self.server = try ServerConfiguration(reader.object("server"))
    if let push = googlePlay?.pushPath,
      push == server.webhookPath || ServerConfiguration.probePaths.contains(push)
    {
      throw ConfigurationError(
        "googlePlay.push.path",
        "\(push) is taken by \(push == server.webhookPath ? "server.webhookPath" : "a probe"); give Google Play's pushes a path of their own"
      )
    }
    self.trust = try TrustConfiguration(reader.object("trust"), resolve: resolve)
    self.fileLimits = try FileLimitsConfiguration(reader.object("limits"))
    self.currencies = try Self.currencies(reader.object("currencies"))
    for index in factSources.indices { factSources[index].fileLimit = fileLimits.facts }
    try Self.checkUnsignedEnvironments(apps, trust)
  }

  /// An app in Xcode or LocalTesting can only ever receive unsigned notifications, which are
  /// refused unless `trust` lets them in: such an app would load and never answer anything.
  private static func checkUnsignedEnvironments(
    _ apps: [AppConfiguration], _ trust: TrustConfiguration
  ) throws(ConfigurationError) {
    for (index, app) in apps.enumerated() {
      let (allowed, key): (Bool, String) =
        switch app.environment {
        case .xcode: (trust.allowXcode, "allowXcode")
        case .localTesting: (trust.allowLocalTesting, "allowLocalTesting")
        default: (true, "")
        }
      guard allowed else {
        throw ConfigurationError(
          "apps[\(index)].environment",
          "\(app.environment.rawValue) notifications come unsigned and are refused unless trust.\(key) is true; set it to answer them, or use Production or Sandbox"
        )
      }
    }
  }

  /// `state.url` (with its `passwordFile`) or else `state.path`, resolved.
  private static func stateLocation(
    _ state: ConfigurationReader?, resolve: (String) -> String
  ) throws(ConfigurationError) -> (String, String?) {
    let passwordFile = try state?.optionalString("passwordFile").map(resolve)
    if let url = try state?.optionalString("url") {
      guard try state?.optionalString("path") == nil else {
        throw ConfigurationError(
          state!.keyPath("url"), "give state.url (PostgreSQL) or state.path (SQLite), not both")
      }
      // The backend parses the rest; a typo'd scheme would otherwise be taken for a file name.
      guard Self.isDatabaseAddress(url) else {
        throw ConfigurationError(
          state!.keyPath("url"), "is a postgres://user@host:port/database address")
      }
      return (url, passwordFile)
    }
    guard passwordFile == nil else {
      throw ConfigurationError(
        state!.keyPath("passwordFile"), "is for a PostgreSQL state.url; state.path needs none")
    }
    let path = resolve(try state?.optionalString("path") ?? "reckon-state.sqlite")
    // Otherwise the state backend would say only "disk I/O error" when it opens it.
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw ConfigurationError(
        state?.keyPath("path") ?? "state.path",
        "\(path) is a folder; give the path of a file, e.g. \(path)/reckon-state.sqlite")
    }
    // SQLite would wait for ever on a FIFO's first read, and read a device as a database.
    do throws(LocalFileError) { try LocalFile.refuseIfNotRegular(path) } catch {
      throw ConfigurationError(state?.keyPath("path") ?? "state.path", error.description)
    }
    return (path, nil)
  }

  /// `state.keepDays`, if given.
  private static func keepDays(_ state: ConfigurationReader) throws(ConfigurationError) -> Int? {
    guard let days = try state.optionalNumber("keepDays") else { return nil }
    return try checkedKeepDays(days)
  }

  /// `days` as `state.keepDays`: whole days, from the shortest retention Apple's retries allow
  /// (7) to a hundred years (more than any history, and short of dates going wrong).
  static func checkedKeepDays(_ days: Double) throws(ConfigurationError) -> Int {
    let fewest = StateRetention.shortestDays
    guard days == days.rounded(), days >= Double(fewest), days <= 36_500 else {
      throw ConfigurationError(
        "state.keepDays",
        "must be a whole number of days from \(fewest) to 36500 (Apple sends a notification again for about six and a half days, and one pruned sooner would be answered again)"
      )
    }
    return Int(days)
  }

  /// The stores whose apps are configured, in `FactSchema.Store.allCases` order: the fact
  /// sources serve each of them.
  public var stores: [FactSchema.Store] {
    (apps.isEmpty ? [] : [.appStore]) + (googlePlayApps.isEmpty ? [] : [.googlePlay])
  }

  /// Whether a service over this configuration sends some store's answers itself: an App
  /// Store key, or a Google Play service account for its Google Play apps.
  public var sendsAnswers: Bool {
    appStoreKey != nil
      || (!googlePlayApps.isEmpty && googlePlay?.serviceAccountKeyPath != nil)
  }

  /// The app with this bundle id and environment, if configured.
  public func app(bundleId: String, environment: AppStoreEnvironment?) -> AppConfiguration? {
    apps.first { $0.bundleId == bundleId && (environment == nil || $0.environment == environment) }
  }

  static func resolve(_ path: String, against base: String) -> String {
    path.hasPrefix("/") || base.isEmpty
      ? path : URL(fileURLWithPath: base).appendingPathComponent(path).standardizedFileURL.path
  }
}

extension ReckonConfiguration {
  /// The provenance names Reckon gives facts of its own, which no fact source may take: an
  /// explanation saying a fact came "from records" must mean Reckon's records.
  public static let reservedSourceNames: Set<String> = ["notification", "records"]

  /// Why a fact source may not be named `name`, one of `reservedSourceNames`.
  static func reservedNameProblem(_ name: String) -> String {
    "'\(name)' names the facts Reckon gives itself (the signed notification, its records); "
      + "give the source another name"
  }
}
