import Testing

@testable import ReckonHTTP

/// The bookkeeping behind the server's connection limits, without sockets. Times are seconds.
@Suite struct ConnectionTableTests {
  /// `table.busy(id)`, outside `#expect`, which cannot take a mutating call.
  static func busy(_ table: inout ConnectionTable, _ id: Int) -> Bool { table.busy(id) }

  @Test func atTheLimitTheLongestIdleConnectionMakesRoom() {
    var table = ConnectionTable(maximum: 2, maximumPerClient: 2)
    #expect(table.admit(client: "a", now: 1) == .admitted(id: 0, evicting: nil))
    #expect(table.admit(client: "b", now: 2) == .admitted(id: 1, evicting: nil))
    #expect(table.admit(client: "c", now: 5) == .admitted(id: 2, evicting: 0))
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
    #expect(Self.busy(&table, 0))
    #expect(table.admit(client: "c", now: 5) == .admitted(id: 2, evicting: 1))
    #expect(Self.busy(&table, 2))
    #expect(table.admit(client: "d", now: 6) == .full)
    #expect(table.busyCount == 2)
    table.idle(0, now: 7)
    #expect(table.admit(client: "d", now: 9) == .admitted(id: 3, evicting: 0))
  }

  /// A connection closed to make room that reads a byte before it notices is not served: it
  /// is no longer counted, and serving it would let one client past every limit.
  @Test func anEvictedConnectionMayNotStartARequest() {
    var table = ConnectionTable(maximum: 1, maximumPerClient: 1)
    _ = table.admit(client: "a", now: 1)
    #expect(table.admit(client: "a", now: 5) == .admitted(id: 1, evicting: 0))
    #expect(!Self.busy(&table, 0))
    #expect(table.count == 1)
  }

  /// A new connection has a second to send its first bytes, and one that just answered a
  /// second to be sent its next request, before either is closed for another.
  @Test func aConnectionIdleForLessThanTheGraceIsNotEvicted() {
    var table = ConnectionTable(maximum: 1, maximumPerClient: 1)
    _ = table.admit(client: "a", now: 10)
    #expect(table.admit(client: "b", now: 10.5) == .full)
    #expect(table.admit(client: "b", now: 11) == .admitted(id: 1, evicting: 0))
  }

  @Test func aClientAtItsShareMakesRoomFromItsOwnConnectionsOnly() {
    var table = ConnectionTable(maximum: 8, maximumPerClient: 2)
    _ = table.admit(client: "other", now: 0)
    _ = table.admit(client: "a", now: 1)
    _ = table.admit(client: "a", now: 2)
    #expect(table.admit(client: "a", now: 4) == .admitted(id: 3, evicting: 1))
    #expect(Self.busy(&table, 2))
    #expect(Self.busy(&table, 3))
    #expect(table.admit(client: "a", now: 6) == .clientFull)
    #expect(table.admit(client: "b", now: 7) == .admitted(id: 4, evicting: nil))
  }

  @Test func aShareAsLargeAsTheServerIsTheServersLimit() {
    var table = ConnectionTable(maximum: 1, maximumPerClient: 5)
    _ = table.admit(client: "a", now: 1)
    #expect(Self.busy(&table, 0))
    #expect(table.admit(client: "a", now: 5) == .full)
  }
}
