import Testing

@testable import ReckonPolicy

/// A trace's fact reads, kept inline while they fit, list the same slots in the same order as
/// plain arrays would, however many there are and whatever their slots.
struct TracedFactReadsTests {
  @Test(arguments: [0, 1, 7, 8, 9, 16, 40])
  func readsListInOrderWithTheMissingOnes(count: Int) {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      var reads = TracedFactReads()
      var slots: [Int] = []
      var missing: [Int] = []
      for _ in 0..<count {
        // Mostly slots that fit inline, some that do not, at any point in the reads.
        let slot =
          Int.random(in: 0..<4, using: &random) > 0
          ? Int.random(in: 0..<64, using: &random)
          : Int.random(in: 64..<100_000, using: &random)
        let isMissing = Bool.random(using: &random)
        reads.append(slot, missing: isMissing)
        slots.append(slot)
        if isMissing { missing.append(slot) }
      }
      #expect(reads.slots == slots)
      #expect(reads.missingSlots == missing)
      for slot in slots.prefix(3) { #expect(reads.contains(slot)) }
    }
  }

  @Test func aSlotThatDoesNotFitInlineKeepsTheOrderOfTheReadsAfterIt() {
    var reads = TracedFactReads()
    reads.append(3, missing: false)
    reads.append(1_000, missing: true)
    reads.append(4, missing: true)
    #expect(reads.slots == [3, 1_000, 4])
    #expect(reads.missingSlots == [1_000, 4])
    #expect(!reads.contains(5))
  }

  @Test func equalReadsMakeEqualTraces() {
    var one = TracedFactReads()
    var other = TracedFactReads()
    for slot in [7, 0, 63, 12] {
      one.append(slot, missing: slot == 0)
      other.append(slot, missing: slot == 0)
    }
    #expect(one == other)
    other.append(9, missing: false)
    #expect(one != other)
  }
}
