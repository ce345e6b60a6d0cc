import ReckonPolicy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The schema's facts found by the UTF-8 bytes of their names, without making a `String` of
/// each name read: a JSON facts file names a fact for every value it gives. Slots are the
/// schema's, keeping the first fact of a name given twice, as `PolicySchema` does.
struct FactNameTable: Sendable {
  /// Each slot's fact, for the thorough reading of a value.
  let descriptors: [FactDescriptor]
  /// Each slot's name and type, apart, so reading a value copies neither the descriptor nor
  /// its strings.
  let names: [String]
  let types: [ValueType]
  /// Whether only the signed notification may give the slot's fact.
  let notificationOnly: [Bool]
  private let nameBytes: [[UInt8]]
  /// Open addressing over the names' hashes; -1 marks an empty bucket.
  private let buckets: [Int32]

  init(schema: FactSchema) {
    let descriptors = schema.policySchema.facts.enumerated().filter { slot, descriptor in
      schema.policySchema.slot(ofFact: descriptor.name) == slot
    }.map(\.element)
    self.descriptors = descriptors
    names = descriptors.map(\.name)
    types = descriptors.map(\.type)
    notificationOnly = descriptors.map { schema.origin(of: $0.name) == .notification }
    nameBytes = names.map { Array($0.utf8) }
    var size = 8
    while size < nameBytes.count * 4 { size *= 2 }
    var buckets = [Int32](repeating: -1, count: size)
    for (slot, name) in nameBytes.enumerated() {
      var bucket = name.withUnsafeBufferPointer(Self.hash) & (size - 1)
      while buckets[bucket] >= 0 { bucket = (bucket + 1) & (size - 1) }
      buckets[bucket] = Int32(slot)
    }
    self.buckets = buckets
  }

  /// How many slots there are.
  var count: Int { names.count }

  /// The slot of the fact whose name is exactly `bytes`, if there is one.
  func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var bucket = Self.hash(bytes) & (buckets.count - 1)
    while buckets[bucket] >= 0 {
      let slot = Int(buckets[bucket])
      let same = nameBytes[slot].withUnsafeBufferPointer { name in
        name.count == bytes.count
          && (name.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress!, name.count) == 0)
      }
      if same { return slot }
      bucket = (bucket + 1) & (buckets.count - 1)
    }
    return nil
  }

  /// The length and the last eight bytes, mixed: fact names share their first words
  /// (`customer.`, `usage.`) and differ at the end, so those tell them apart without a loop
  /// over every byte of every name read.
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var tail = UInt64(bytes.count)
    if bytes.count >= 8, let base = bytes.baseAddress {
      tail ^= UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)
    } else {
      for byte in bytes { tail = tail << 8 | UInt64(byte) }
    }
    let mixed = (tail ^ tail >> 29) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed >> 32)
  }
}
