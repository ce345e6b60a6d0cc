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
