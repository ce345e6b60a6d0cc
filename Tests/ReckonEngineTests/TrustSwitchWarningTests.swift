import Foundation
import ReckonStateSQLite
import Testing

@testable import ReckonEngine

/// Accepting unsigned notifications is a development setting: the service from reckon.json
/// says so at start, for each switch that is on.
struct TrustSwitchWarningTests {
  @Test func aTrustSwitchThatAcceptsUnsignedNotificationsIsWarnedAboutAtStart() throws {
    let path = try ConfigurationPermissionTests.folder(configMode: 0o644, policyMode: 0o644)
    var configuration = try ReckonConfiguration.load(path: path)
    configuration.trust.allowXcode = true
    var warnings: [String] = []
    let service = try ReckonService(
      configuration: configuration, state: SQLiteStateOpener(), transport: nil,
      warn: { warnings.append($0) })
    #expect(service.unsignedEnvironments == [.xcode])
    #expect(
      warnings.contains {
        $0.hasPrefix(
          "warning: trust.allowXcode is on: Xcode notifications, which Apple does not sign")
      }, "\(warnings)")
    #expect(!warnings.contains { $0.contains("allowLocalTesting") })
  }
}
