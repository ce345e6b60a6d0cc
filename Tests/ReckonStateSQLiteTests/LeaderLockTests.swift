import Foundation
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// One service uses an SQLite state; a second started on the same file by mistake follows, so
/// the retries and pruning run once, and takes the lead when the first gives it up.
struct LeaderLockTests {
  @Test func aSecondStoreOnTheSameFileFollowsUntilTheFirstLetsGo() throws {
    let path = TestState.temporaryPath()
    let first = try SQLiteStateStore(path: path, rules: .appStore)
    let second = try SQLiteStateStore(path: path, rules: .appStore)
    let leading = first.takeLeaderLease()
    let following = second.takeLeaderLease()
    #expect(leading.isLeader)
    #expect(!following.isLeader)
    #expect(!following.refresh(), "held by the first")
    #expect(leading.refresh(), "a lead held stays held")
    leading.release()
    #expect(following.refresh(), "the lead let go is taken at the next refresh")
    #expect(!leading.refresh(), "a released lease is not taken again")
    following.release()
  }

  /// Where no lock file can be made, the one service leads all the same.
  @Test func aStateInAFolderThatCannotBeWrittenStillLeads() throws {
    let lock = LeaderLock(
      statePath: "/proc/reckon-\(UUID().uuidString)/state.sqlite")
    #expect(lock.isLeader)
    lock.release()
    #expect(!lock.isLeader)
  }
}
