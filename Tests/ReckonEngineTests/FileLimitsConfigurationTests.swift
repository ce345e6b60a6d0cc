import Foundation
import ReckonEngine
import ReckonSupport
import ReckonTestSupport
import Testing

/// `limits` in reckon.json raises or lowers the largest policy and facts files Reckon reads.
struct FileLimitsConfigurationTests {
  static func load(_ limits: String) throws(ConfigurationError) -> ReckonConfiguration {
    let text = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}],
       "factSources": [{"name": "notes", "type": "json", "path": "notes.json"}]
       \(limits.isEmpty ? "" : ", \"limits\": \(limits)")}
      """
    let root = (try? JSONValue.parse(Data(text.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: TestScratch.folder.path)
  }

  @Test func theDefaultsAreFourMebibytePoliciesAndQuarterGibibyteFacts() throws {
    let configuration = try Self.load("")
    #expect(configuration.fileLimits.policy.bytes == 4 << 20)
    #expect(configuration.fileLimits.facts.bytes == 256 << 20)
    #expect(configuration.factSources.first?.fileLimit.bytes == 256 << 20)
  }

  @Test func configuredLimitsReachThePolicyAndEveryFactSource() throws {
    let configuration = try Self.load(#"{"policyFileBytes": 100000, "factsFileBytes": 5000}"#)
    #expect(configuration.fileLimits.policy.bytes == 100_000)
    #expect(configuration.fileLimits.policy.setting == "limits.policyFileBytes")
    #expect(configuration.factSources.first?.fileLimit.bytes == 5_000)
  }

  @Test(arguments: [
    (#"{"policyBytes": 10}"#, "limits.policyBytes"),
    (#"{"policyFileBytes": 0}"#, "limits.policyFileBytes"),
    (#"{"factsFileBytes": 1.5}"#, "limits.factsFileBytes"),
    (#"{"factsFileBytes": 1e300}"#, "limits.factsFileBytes"),
  ])
  func aLimitThatCannotWorkIsRefusedNamingItsKey(_ limits: String, _ key: String) {
    let error = #expect(throws: ConfigurationError.self) { try Self.load(limits) }
    #expect(error?.key.hasPrefix(key) == true, "\(String(describing: error))")
  }
}
