import Testing

@testable import ReckonPolicy

/// The compact pieces a trace is recorded into.
struct TraceStorageTests {
  @Test(arguments: [10, 64, 65, 200])
  func aSlotSetHoldsEachCoveredSlotOnce(count: Int) {
    var set = FactSlotSet(count: count)
    for slot in [0, count / 2, count - 1] {
      #expect(!set.contains(slot))
      let first = set.insert(slot)
      let second = set.insert(slot)
      #expect(first && !second)
      #expect(set.contains(slot))
    }
    #expect(!set.covers(count))
    let outside = [set.insert(count), set.insert(-1)]
    #expect(outside == [false, false])
  }

  @Test func anAttemptsValuesAreIndexedFromZero() {
    var storage = TracedValues()
    storage.append(1, .boolean(true))
    storage.append(2, nil)
    storage.append(3, .boolean(false))
    let values = TraceConditionValues(storage, 1..<3)
    #expect(values.count == 2)
    #expect(values[0].node == 2)
    #expect(values.map(\.node) == [2, 3])
    #expect(values == [.init(node: 2, value: nil), .init(node: 3, value: .boolean(false))])
    #expect(values != [.init(node: 2, value: nil)])
    #expect(TraceConditionValues().isEmpty)
  }

  @Test(arguments: [
    Value.boolean(true), .boolean(false), .number(-2.5), .number(.infinity), .percent(40),
    .duration(86_400), .timestamp(-62_135_596_800), .enumeration(0), .enumeration(63),
    .text("com.example.coins"), .text(""), .money(4_990, currency: "USD"),
  ])
  func everyKindOfValueReadsBackAsRecorded(value: Value) {
    var storage = TracedValues()
    storage.append(7, nil)
    storage.append(8, value)
    storage.append(9, .text("after"))
    #expect(storage.count == 3)
    #expect(storage[0] == PolicyTrace.ConditionValue(node: 7, value: nil))
    #expect(storage[1] == PolicyTrace.ConditionValue(node: 8, value: value))
    #expect(storage[2] == PolicyTrace.ConditionValue(node: 9, value: .text("after")))
  }

  @Test func attemptsReadTheirOwnRangeOfTheTracesValues() throws {
    let policy = try TestSchema.compile(
      """
      rule "a" when reason == LEGAL and delivery.status == DELIVERED then refund DECLINE
      rule "b" when customer.consented then refund GRANT_FULL
      """)
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    #expect(trace.attempts.map(\.rule) == [0, 1])
    #expect(trace.attempts[0].conditions.count == 2)
    #expect(trace.attempts[1].conditions.map(\.value) == [.boolean(true)])
    #expect(trace.attempts.last?.result == true)
  }
}
