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
    let root = try JSONValue.parse(Data(json.utf8)).objectValue ?? [:]
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
      .sender
  }
}
