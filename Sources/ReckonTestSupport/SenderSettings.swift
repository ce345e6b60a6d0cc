import Foundation
import ReckonEngine
import ReckonSupport

/// Sender settings for tests: the default pacing, short backoff.
public enum SenderSettings {
  /// The settings, with `sandboxPerSecond` sends a second in the sandbox and backoff from
  /// `initialBackoff` seconds.
  public static func fast(sandboxPerSecond: Double = 5, initialBackoff: Double = 30) throws
    -> SenderConfiguration
  {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "sender": {"sandboxRequestsPerSecond": \(sandboxPerSecond), "initialBackoffSeconds": \(initialBackoff),
                  "maximumBackoffSeconds": 1800}}
      """
    return try sender(json)
  }

  /// The default settings but `perSecond` sends a second in Production.
  public static func production(perSecond: Double) throws -> SenderConfiguration {
    try sender(
      #"{"apps":[{"bundleId":"com.example","appAppleId":1,"policy":"p"}],"sender":{"productionRequestsPerSecond":\#(perSecond)}}"#
    )
  }

  private static func sender(_ json: String) throws -> SenderConfiguration {
    let root = try JSONValue.parse(Data(json.utf8)).objectValue ?? [:]
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
      .sender
  }
}
