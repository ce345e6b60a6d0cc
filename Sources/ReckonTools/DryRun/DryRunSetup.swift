import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonState
import ReckonSupport

/// What a dry-run needs from `reckon.json`: the fact sources as bulk layers, and a verifier for
/// `signedPayload` lines trusting the configured roots.
public enum DryRunSetup {
  /// The configured sources as bulk layers: a SQLite source with a `bulkQuery` is scanned,
  /// other SQLite and JSON sources are asked per request; nil when some source can only answer
  /// asynchronously (then the dry-run decides one request at a time).
  public static func bulkLayers(_ configuration: ReckonConfiguration, _ setup: FactSourceSetup)
    throws(ConfigurationError) -> [BulkFactLayer]?
  {
    var layers: [BulkFactLayer] = []
    for (configured, layer) in zip(configuration.factSources, setup.layers) {
      if let sqlite = layer.source as? SQLiteFactSource,
        let sql = try configured.settings.optionalString("bulkQuery")
      {
        layers.append(
          .scan(name: sqlite.name, path: sqlite.settings.path, sql: sql, source: sqlite))
      } else if let source = layer.source as? any SynchronousFactSource {
        layers.append(.lookup(source))
      } else {
        return nil
      }
    }
    return layers
  }

  /// A verifier for the configured apps, trusting the configured roots (Apple's by default).
  public static func verifier(_ configuration: ReckonConfiguration) throws(DryRunError)
    -> NotificationVerifier
  {
    var roots: [X509Certificate] = []
    for path in configuration.trust.rootCertificatePaths {
      let data: Data
      do throws(LocalFileError) { data = try LocalFile.data(at: path, limit: .secret) } catch {
        throw .unreadable(path: path, reason: error.reason)
      }
      guard let certificate = X509Certificate(pemOrDER: data) else {
        throw .unreadable(path: path, reason: "is not a PEM or DER certificate")
      }
      roots.append(certificate)
    }
    if roots.isEmpty { roots = AppleRootCertificates.defaultRoots() }
    var unverified: Set<AppStoreEnvironment> = []
    if configuration.trust.allowXcode { unverified.insert(.xcode) }
    if configuration.trust.allowLocalTesting { unverified.insert(.localTesting) }
    let apps = configuration.apps.map {
      AcceptedApp(bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment)
    }
    return NotificationVerifier(apps: apps, roots: roots, unverifiedEnvironments: unverified)
  }

  /// Reads every line of `lines` as a past request, for the one-at-a-time dry-run; with `apps`,
  /// requests for other apps are counted and left out; with `skipBadLines`, so are lines that
  /// cannot be read (`DryRunError.isUnreadableLine`), which otherwise stop the reading. Google
  /// Play lines are left for `GooglePlayLines`, by index.
  public static func pastRequests(
    _ lines: RequestLines, verifier: NotificationVerifier?, apps: ConfiguredApps? = nil,
    skipBadLines: Bool = false
  )
    throws(DryRunError) -> (
      requests: [PastRequest], ignored: Int, otherApps: Int, unreadable: UnreadableLines,
      verdicts: StoreVerdicts, googlePlay: [Int]
    )
  {
    var reader = RequestLineReader(path: lines.path, verifier: verifier)
    var requests: [PastRequest] = []
    var ignored = 0
    var otherApps = 0
    var unreadable = UnreadableLines()
    var verdicts = StoreVerdicts()
    var googlePlay: [Int] = []
    for index in 0..<lines.count {
      let read: RequestLine
      do { read = try reader.read(index, of: lines) } catch {
        guard skipBadLines, error.isUnreadableLine else { throw error }
        unreadable.add(error)
        continue
      }
      let request: RefundRequest
      switch read {
      case .request(let found): request = found
      case .otherNotification:
        ignored += 1
        continue
      case .verdict(let transactionId, let environment, let date):
        ignored += 1
        verdicts.add(transactionId: transactionId, environment: environment?.rawValue, at: date)
        continue
      case .otherApp:
        otherApps += 1
        continue
      case .googlePlay:
        googlePlay.append(index)
        continue
      }
      if let apps, !apps.contains(request) {
        otherApps += 1
        continue
      }
      requests.append(
        PastRequest(request: request, origin: "\(lines.path):\(lines.numbers[index])"))
    }
    return (requests, ignored, otherApps, unreadable, verdicts, googlePlay)
  }

  /// For a run that decides Google Play's lines alone (`--store googlePlay`): the indices of
  /// the Google Play lines of `lines`, and how many of the App Store lines, left out, claim to
  /// be CONSUMPTION_REQUESTs. No App Store line is verified, and none stops the reading; a line
  /// of neither store does, unless `skipBadLines`, as in `pastRequests`.
  public static func googlePlayLines(_ lines: RequestLines, skipBadLines: Bool = false)
    throws(DryRunError) -> (googlePlay: [Int], appStoreRequests: Int, unreadable: UnreadableLines)
  {
    var reader = RequestLineReader(path: lines.path, verifier: nil)
    var googlePlay: [Int] = []
    var appStoreRequests = 0
    var unreadable = UnreadableLines()
    for index in 0..<lines.count {
      do {
        switch try reader.readForGooglePlay(index, of: lines) {
        case .googlePlay: googlePlay.append(index)
        case .appStore(let isRequest): if isRequest { appStoreRequests += 1 }
        }
      } catch {
        guard skipBadLines, error.isUnreadableLine else { throw error }
        unreadable.add(error)
      }
    }
    return (googlePlay, appStoreRequests, unreadable)
  }

  /// A date option: `2026-11-01` (UTC midnight) or an ISO 8601 time with its zone.
  public static func date(_ text: String) throws(DryRunError) -> Date {
    try DateOption.parse(text)
  }
}
