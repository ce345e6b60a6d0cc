import Foundation
import Testing

struct SnapshotTests {
  @Test func aMissingSnapshotIsAFailureNotCreated() {
    guard !Snapshot.isUpdating else { return }
    withKnownIssue {
      Snapshot.expect("anything", matches: "no-such-snapshot")
    }
    let url = Snapshot.directory.appendingPathComponent("no-such-snapshot.txt")
    #expect((try? String(contentsOf: url, encoding: .utf8)) == nil)
  }

  @Test func aDifferentTextIsAFailure() {
    guard !Snapshot.isUpdating else { return }
    withKnownIssue {
      Snapshot.expect("not the snapshot", matches: "diagnostic-duplicate-let")
    }
  }
}
