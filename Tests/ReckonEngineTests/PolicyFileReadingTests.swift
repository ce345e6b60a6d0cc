import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

/// `check`, `fmt`, `test` and `serve` read policies through `PolicyFiles.read`; the key given by
/// mistake must not reach a diagnostic, which quotes the line it points at.
@Suite struct PolicyFileReadingTests {
  @Test(arguments: [
    "-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n-----END PRIVATE KEY-----\n",
    "\n  -----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n",
    "\u{FEFF}-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n",
    "Bag Attributes\n    localKeyID: 01 00 00 00\nKey Attributes: <No Attributes>\n"
      + "-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n",
  ])
  func aPEMFileIsRefusedWithoutShowingAnyOfIt(_ text: String) throws {
    let path = TestScratch.folder.appendingPathComponent("AuthKey-\(UUID()).p8").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try PolicyFiles.read(path)
    } throws: { error in
      let message = "\(error)"
      return message.contains("PEM file") && !message.contains("MII")
    }
  }

  @Test func aPolicyThatMentionsBEGINInAStringIsRead() throws {
    let path = TestScratch.folder.appendingPathComponent("begin-\(UUID()).policy").path
    try Data("# -----BEGIN notes\nrule \"a\" when reason == OTHER then refund DECLINE\n".utf8)
      .write(to: URL(fileURLWithPath: path))
    #expect(try PolicyFiles.read(path).bytes.count > 0)
  }
}

/// A policy path is read only when it names a regular file within `limits.policyFileBytes`.
@Suite struct PolicyFileKindTests {
  @Test func aPolicySymlinkedToADeviceIsRefusedAtOnce() throws {
    let path = TestScratch.folder.appendingPathComponent("zero-\(UUID()).policy").path
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
    #expect {
      _ = try PolicyFiles.read(path)
    } throws: { error in
      "\(error)" == "\(path): is a character device, not a regular file"
    }
  }

  @Test func aPolicyOverTheLimitIsRefusedNamingTheSetting() throws {
    let path = TestScratch.folder.appendingPathComponent("big-\(UUID()).policy").path
    try Data(repeating: 0x23, count: 2_000).write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try PolicyFiles.read(path, limit: .policy.raised(to: 1_000))
    } throws: { error in
      "\(error)".contains("over the 1000 bytes limit for policy files (limits.policyFileBytes")
    }
  }
}
