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

  /// `table.reading(id)`, outside `#expect`.
  static func reading(_ table: inout ConnectionTable, _ ids: Range<Int>) {
    for id in ids { _ = table.reading(id) }
  }

  /// When the server is full, a client holding more connections than another gives up its
  /// oldest that is not answering a request, with no grace: silent or part-way through a request
  /// (slow heads and bodies are what a flood holds slots with), until the shares are even.
  @Test func underPressureTheClientHoldingMostMakesRoomForAnother() {
    var table = ConnectionTable(maximum: 4, maximumPerClient: 4)
    for index in 0..<4 { _ = table.admit(client: "a", now: Double(index) / 10) }
    Self.reading(&table, 0..<4)
    #expect(table.admit(client: "b", now: 0.4) == .admitted(id: 4, evicting: 0))
    #expect(Self.busy(&table, 1))
    #expect(table.admit(client: "c", now: 0.5) == .admitted(id: 5, evicting: 2), "not the busy one")
    #expect(table.admit(client: "d", now: 0.6) == .admitted(id: 6, evicting: 3))
    #expect(table.admit(client: "e", now: 0.7) == .full, "one each: even")
  }

  /// A client gives up a connection only to one holding at least two fewer, so that after the
  /// swap it still holds as many: two clients never take slots from each other back and forth.
  @Test func sharesOneApartAreEvenEnough() {
    var table = ConnectionTable(maximum: 3, maximumPerClient: 3)
    _ = table.admit(client: "a", now: 0)
    _ = table.admit(client: "a", now: 0)
    _ = table.admit(client: "b", now: 0)
    Self.reading(&table, 0..<3)
    #expect(table.admit(client: "b", now: 5) == .full)
  }

  /// Behind a proxy every connection has its address: one address alone may hold every slot,
  /// and its own connections part-way through a request are not closed for its next.
  @Test func oneAddressAloneMayHoldEverySlot() {
    var table = ConnectionTable(maximum: 3, maximumPerClient: 3)
    for _ in 0..<3 { _ = table.admit(client: "proxy", now: 0) }
    Self.reading(&table, 0..<3)
    #expect(table.admit(client: "proxy", now: 5) == .full)
  }

  /// A client over its share makes room before another's keep-alive connection, however long
  /// that one has waited.
  @Test func theClientHoldingMostMakesRoomBeforeAnIdleConnectionOfAnother() {
    var table = ConnectionTable(maximum: 3, maximumPerClient: 3)
    _ = table.admit(client: "apple", now: 0)
    _ = table.admit(client: "a", now: 5)
    _ = table.admit(client: "a", now: 6)
    Self.reading(&table, 1..<3)
    #expect(table.admit(client: "b", now: 9) == .admitted(id: 3, evicting: 1))
  }

  /// Nor does a client holding most take the keep-alive connection of one holding fewer: a
  /// flood cannot close Apple's connection between its requests.
  @Test func aClientHoldingMostDoesNotTakeTheIdleConnectionOfOneHoldingFewer() {
    var table = ConnectionTable(maximum: 3, maximumPerClient: 3)
    _ = table.admit(client: "apple", now: 0)
    _ = table.admit(client: "a", now: 5)
    _ = table.admit(client: "a", now: 6)
    Self.reading(&table, 1..<3)
    #expect(table.admit(client: "a", now: 9) == .full)
    #expect(table.admit(client: "b", now: 9) == .admitted(id: 3, evicting: 1))
  }

  @Test func aShareAsLargeAsTheServerIsTheServersLimit() {
    var table = ConnectionTable(maximum: 1, maximumPerClient: 5)
    _ = table.admit(client: "a", now: 1)
    #expect(Self.busy(&table, 0))
    #expect(table.admit(client: "a", now: 5) == .full)
  }
}
