import Foundation
import ReckonAppStore
import ReckonEngine

extension GoLiveDoctor {
  /// Skipped without App Store apps. The roots load as `reckon serve` loads them, none has expired, and an app that takes
  /// Apple's signed notifications (Production, Sandbox) has Apple's root among them: configured
  /// roots replace it, so a test CA left in `trust.roots` refuses every genuine notification.
  func rootsCheck(_ configuration: ReckonConfiguration) -> DoctorCheck {
    let name = "trusted roots"
    // Roots are for Apple's signed notifications; Google Play's pushes are checked by key.
    guard !configuration.apps.isEmpty else { return .skip(name, "no App Store app is configured") }
    let roots: [X509Certificate]
    do { roots = try ReckonService.roots(configuration.trust) } catch {
      return .fail(name, error.description)
    }
    let at = now()
    if let expired = roots.first(where: { ($0.notAfter ?? .distantFuture) < at }) {
      return .fail(
        name, "\(expired.subject) expired on \(Self.day(expired.notAfter)): nothing chains to it")
    }
    let apple = Set(AppleRootCertificates.defaultRoots().map(\.sha256Fingerprint))
    let signed = configuration.apps.filter {
      $0.environment == .production || $0.environment == .sandbox
    }
    if let app = signed.first, !roots.contains(where: { apple.contains($0.sha256Fingerprint) }) {
      return .fail(
        name,
        "trust.roots does not list Apple Root CA - G3 and replaces it: every notification Apple "
          + "signs for \(app.bundleId) (\(app.environment.rawValue)) would be refused 403")
    }
    let listed = roots.map { "\($0.subject) (until \(Self.day($0.notAfter)))" }
      .joined(separator: ", ")
    var detail =
      configuration.trust.rootCertificatePaths.isEmpty
      ? "Apple Root CA - G3, built in (until \(Self.day(roots.first?.notAfter)))"
      : "\(roots.count) from trust.roots: \(listed)"
    let unsigned = [
      configuration.trust.allowXcode ? "Xcode" : nil,
      configuration.trust.allowLocalTesting ? "LocalTesting" : nil,
    ].compactMap { $0 }
    if !unsigned.isEmpty {
      detail += "; unsigned \(unsigned.joined(separator: " and ")) notifications accepted too"
    }
    return .ok(name, detail)
  }

  /// A certificate's date as a UTC day.
  static func day(_ date: Date?) -> String {
    guard let date else { return "an unreadable date" }
    return String(date.formatted(.iso8601).prefix(10))
  }
}
