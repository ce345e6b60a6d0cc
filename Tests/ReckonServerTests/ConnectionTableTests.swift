import Testing

@testable import ReckonServer

/// The bookkeeping behind the server's connection limits, without sockets.
@Suite struct ConnectionTableTests {
  @Test func atTheLimitTheLongestIdleConnectionMakesRoom() {
    var table = ConnectionTable(maximum: 2, maximumPerClient: 2)
    #expect(table.admit(client: "a", now: 1) == .admitted(id: 0, evicting: nil))
    #expect(table.admit(client: "b", now: 2) == .admitted(id: 1, evicting: nil))
    #expect(table.admit(client: "c", now: 3) == .admitted(id: 2, evicting: 0))
    #expect(table.isEvicted(0))
    #expect(table.count == 2)
    table.closed(0)
    #expect(!table.isEvicted(0))
    #expect(table.count == 2, "an evicted connection is counted out once")
  }

  @Test func aBusyConnectionIsNeverEvicted() {
    var table = ConnectionTable(maximum: 2, maximumPerClient: 2)
    _ = table.admit(client: "a", now: 1)
    _ = table.admit(client: "b", now: 2)
    table.busy(0)
    #expect(table.admit(client: "c", now: 3) == .admitted(id: 2, evicting: 1))
    table.busy(2)
    #expect(table.admit(client: "d", now: 4) == .full)
    #expect(table.busyCount == 2)
    table.idle(0, now: 5)
    #expect(table.admit(client: "d", now: 6) == .admitted(id: 3, evicting: 0))
  }

  @Test func aClientAtItsShareMakesRoomFromItsOwnConnectionsOnly() {
    var table = ConnectionTable(maximum: 8, maximumPerClient: 2)
    _ = table.admit(client: "other", now: 0)
    _ = table.admit(client: "a", now: 1)
    _ = table.admit(client: "a", now: 2)
    #expect(table.admit(client: "a", now: 3) == .admitted(id: 3, evicting: 1))
    table.busy(2)
    table.busy(3)
    #expect(table.admit(client: "a", now: 4) == .clientFull)
    #expect(table.admit(client: "b", now: 5) == .admitted(id: 4, evicting: nil))
  }

  @Test func aShareAsLargeAsTheServerIsTheServersLimit() {
    var table = ConnectionTable(maximum: 1, maximumPerClient: 5)
    _ = table.admit(client: "a", now: 1)
    table.busy(0)
    #expect(table.admit(client: "a", now: 2) == .full)
  }
}
