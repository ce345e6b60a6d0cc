import Foundation
import ReckonAppStore
import ReckonState

/// Which policy version decides for an app: named in the log when the service starts and each
/// time a reload puts a version live, so an operator can tell what is deciding and what `check`
/// warned about it.
public struct LivePolicy: Hashable, Sendable {
  /// The policy file (or the name of policy text held in memory).
  public let path: String
  /// The app it decides for, as `bundleId (Environment)`.
  public let app: String
  /// The app's bundle id (a Google Play app's package name), as log lines' `app` field holds.
  public let bundleId: String
  /// The app's environment.
  public let environment: String
  /// The policy's `version` header, if it has one.
  public let version: String?
  /// SHA-256 of the policy text as hex, as stored with each decision.
  public let sha256: String
  /// `check`'s warnings about this version, each rendered as `reckon check` prints it.
  public let warnings: [String]

  /// A description of `entry`, live for `app`.
  init(_ entry: PolicyBook.Entry, app: AppKey) {
    path = entry.source.name
    self.app = app.description
    bundleId = app.bundleId
    environment = app.environment
    version = entry.policy.checked.version
    sha256 = entry.textSHA256
    warnings = entry.warnings
  }

  /// `PATH (version V, sha256 PREFIX)`, the policy as a log line names it.
  var named: String {
    "\(path) (" + (version.map { "version \($0), " } ?? "") + "sha256 \(sha256.prefix(12)))"
  }

  /// A sentence on `check`'s warnings, with them, or nothing when there are none.
  var warningNote: String {
    guard !warnings.isEmpty else { return "" }
    let count = warnings.count == 1 ? "a warning" : "\(warnings.count) warnings"
    return "; reckon check gives it \(count):\n" + warnings.joined(separator: "\n")
  }
}
