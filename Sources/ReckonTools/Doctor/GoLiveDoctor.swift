import Foundation
import ReckonEngine
import ReckonState
import ReckonSupport

/// `reckon doctor`: checks, one by one, what a service needs before Apple's notifications are
/// pointed at it — the key signs, the roots load, each policy checks and passes its tests, the
/// fact sources answer, consent has a source, the state can be written, the webhook URL reaches
/// Reckon, the clock agrees with Apple's — and says for each what it found (docs/going-live.md).
/// Nothing it does changes what the service keeps: the state's write leaves nothing behind.
public struct GoLiveDoctor: Sendable {
  /// What to check beyond `reckon.json` itself.
  public struct Options: Sendable {
    /// The configuration file.
    public var configurationPath: String
    /// The public URL Apple posts to (its webhook path, or `/healthz`), when one should be tried.
    public var webhookURL: URL?
    /// The transaction the fact sources are asked about; a made-up one when nil.
    public var transactionId: String?
    /// Whether to leave the App Store alone: the clock is then compared with `webhookURL` only.
    public var offline: Bool

    /// Options for `configurationPath`.
    public init(
      configurationPath: String, webhookURL: URL? = nil, transactionId: String? = nil,
      offline: Bool = false
    ) {
      self.configurationPath = configurationPath
      self.webhookURL = webhookURL
      self.transactionId = transactionId
      self.offline = offline
    }
  }

  /// The transaction asked about when none is given: no real one has this id, so a source
  /// answering it shows it runs its queries, not that it knows the customer.
  public static let sampleTransactionId = "0"

  let options: Options
  let transport: any HTTPTransport
  let stateOpener: @Sendable (ReckonConfiguration) -> any StateOpener
  let now: @Sendable () -> Date

  /// A doctor reaching the network through `transport` and opening the state with the opener
  /// `state` picks for the configuration (the CLI's choice of backend).
  public init(
    _ options: Options, transport: any HTTPTransport,
    state: @escaping @Sendable (ReckonConfiguration) -> any StateOpener,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.options = options
    self.transport = transport
    self.stateOpener = state
    self.now = now
  }

  /// Runs every check; each one's failure is its own line, and the others still run.
  public func run() async -> DoctorReport {
    let configuration: ReckonConfiguration
    do { configuration = try ReckonConfiguration.load(path: options.configurationPath) } catch {
      return DoctorReport(
        [.fail("configuration", error.description)]
          + Self.laterChecks.map { .skip($0, "the configuration does not load") })
    }
    var checks = [configurationCheck(configuration)]
    checks.append(keyCheck(configuration))
    if !configuration.googlePlayApps.isEmpty {
      checks.append(googlePlayKeyCheck(configuration))
      checks.append(await googlePlayPushKeysCheck(configuration))
    }
    checks.append(rootsCheck(configuration))
    checks += policyChecks(configuration)
    checks += await factChecks(configuration)
    checks.append(stateCheck(configuration))
    checks += await networkChecks(configuration)
    return DoctorReport(checks)
  }

  /// The checks that need the configuration, named as their lines name them.
  static let laterChecks = [
    "app-store key", "trusted roots", "policy", "policy tests", "consent", "fact sources",
    "state", "webhook url", "clock",
  ]

  /// `reckon.json` loaded; whoever may write it or a policy decides what Reckon trusts.
  private func configurationCheck(_ configuration: ReckonConfiguration) -> DoctorCheck {
    let warnings = configuration.permissionWarnings()
    guard warnings.isEmpty else {
      return .fail(
        "configuration",
        warnings.map { $0.hasPrefix("warning: ") ? String($0.dropFirst(9)) : $0 }
          .joined(separator: "; "))
    }
    let apps =
      configuration.apps.map { "\($0.bundleId) (\($0.environment.rawValue))" }
      + configuration.googlePlayApps.map { "\($0.packageName) (Google Play)" }
    let sources = configuration.factSources.count
    return .ok(
      "configuration",
      "\(options.configurationPath) loads: \(apps.joined(separator: ", ")); "
        + "\(sources) fact source\(sources == 1 ? "" : "s")")
  }
}
