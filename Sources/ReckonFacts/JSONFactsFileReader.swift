import Foundation
import ReckonPolicy
import ReckonSupport

/// Reads a JSON facts file's bytes straight into its entries, for a file without a problem: going
/// through a `JSONValue` tree and a `FactDocument` per entry spent most of a load building,
/// sorting and freeing dictionaries, and reading each value through `String`.
///
/// It gives up (nil) at the first thing that is not plainly right, anything `JSONFactsFile`'s
/// thorough reading would refuse, and the file is then read that way, which finds the first
/// problem in its order and words it. Where this reader answers, it gives what that reading
/// gives: the same JSON (`JSONParser` reads every token), the same facts and values
/// (`PlainValueReader` where it answers, `FactDocument.value` otherwise).
struct JSONFactsFileReader {
  /// One entry read, before its section's dictionary is built.
  private struct Read {
    let key: String
    let entry: JSONFactsFile.Entry
  }

  private let table: FactNameTable
  private let schema: FactSchema
  /// Whether each slot's fact is one only another store the source serves reads.
  private let passedOver: [Bool]
  /// The values the entry being read gives in another store's words.
  private var otherStoresValues: [OtherStoresValue] = []
  /// For each slot, the number of the entry that last gave it, to find a fact given twice.
  private var lastEntry: [Int]
  private var entryNumber = 0
  /// How many facts the last entry gave: entries of a file tend to give the same ones, so
  /// the next entry's dictionary is made that large at once.
  private var lastCount = 0
  private var reads: [JSONFactsFile.Section: [Read]] = [:]

  init(schema: FactSchema) {
    table = FactNameTable(schema: schema)
    self.schema = schema
    passedOver = table.names.map(schema.otherStores.passedOverFacts.contains)
    lastEntry = Array(repeating: -1, count: table.count)
  }

  /// The entries of `data`, marked as from file number `file`; nil when the thorough reading
  /// must look at it.
  mutating func read(_ data: Data, file: Int) -> JSONFactsFile.Sections? {
    var parser = JSONParser(data)
    let input = parser.input
    reads = [:]
    let read = input.withUnsafeBufferPointer { input in
      document(&parser, input: input, file: file)
    }
    guard read, parser.atEnd() else { return nil }
    var sections = JSONFactsFile.Sections()
    for (section, reads) in reads {
      // Built once its size is known: growing it entry by entry hashed every key again at
      // each doubling.
      var entries = [String: JSONFactsFile.Entry](minimumCapacity: reads.count)
      for read in reads {
        // A key given twice (in any spelling `String` counts as the same) is refused by the
        // thorough reading; so is a token given twice in two cases.
        guard entries.updateValue(read.entry, forKey: read.key) == nil else { return nil }
      }
      sections[section] = entries
    }
    reads = [:]
    return sections
  }

  /// Reads the top-level object, `{"SECTION": {entries}, ...}`.
  private mutating func document(
    _ parser: inout JSONParser, input: UnsafeBufferPointer<UInt8>, file: Int
  ) -> Bool {
    var seen: Set<JSONFactsFile.Section> = []
    return Self.members(&parser) { parser throws(JSONParseError) in
      let section = Self.section(try parser.readString(), in: input)
      guard let section, seen.insert(section).inserted, parser.eat(UInt8(ascii: ":")) else {
        return false
      }
      return Self.members(&parser) { parser throws(JSONParseError) in
        try entry(&parser, input: input, section: section, file: file)
      }
    }
  }

  /// Reads an object, handing each member to `member` with the parser at its key; false when
  /// the object is not well formed or `member` returns false.
  private static func members(
    _ parser: inout JSONParser, _ member: (inout JSONParser) throws(JSONParseError) -> Bool
  ) -> Bool {
    do {
      guard parser.eat(UInt8(ascii: "{")) else { return false }
      if parser.eat(UInt8(ascii: "}")) { return true }
      repeat {
        guard try member(&parser) else { return false }
      } while parser.eat(UInt8(ascii: ","))
      return parser.eat(UInt8(ascii: "}"))
    } catch {
      return false
    }
  }

  /// Reads one entry, `"KEY": {facts}`.
  private mutating func entry(
    _ parser: inout JSONParser, input: UnsafeBufferPointer<UInt8>,
    section: JSONFactsFile.Section, file: Int
  ) throws(JSONParseError) -> Bool {
    let rawKey = parser.text(of: try parser.readString())
    guard parser.eat(UInt8(ascii: ":")) else { return false }
    entryNumber += 1
    var facts = [String: Value](minimumCapacity: lastCount)
    let read = Self.members(&parser) { parser throws(JSONParseError) in
      try fact(&parser, input: input, into: &facts)
    }
    guard read else { return false }
    lastCount = facts.count
    let key = section == .byAppAccountToken ? UUIDText.accountKey(rawKey) : rawKey
    var entry = JSONFactsFile.Entry(facts: facts, file: file)
    // Rare: placed and sorted here, so an entry without any costs nothing more.
    if !otherStoresValues.isEmpty {
      let place = section.rawValue + "." + rawKey
      entry.otherStoresValues = otherStoresValues.sorted { $0.fact < $1.fact }.map {
        var placed = $0
        placed.place = place
        return placed
      }
      otherStoresValues = []
    }
    reads[section, default: []].append(Read(key: key, entry: entry))
    return true
  }

  /// Reads one fact, `"NAME": VALUE`, into `facts`.
  private mutating func fact(
    _ parser: inout JSONParser, input: UnsafeBufferPointer<UInt8>,
    into facts: inout [String: Value]
  ) throws(JSONParseError) -> Bool {
    let name = try parser.readString()
    guard let slot = slot(of: name, in: input), lastEntry[slot] != entryNumber,
      parser.eat(UInt8(ascii: ":"))
    else { return false }
    lastEntry[slot] = entryNumber
    let value: Value?
    if parser.at(UInt8(ascii: "\"")) {
      let token = try parser.readString()
      if let plain = plainValue(token, in: input, slot: slot) {
        value = plain
      } else {
        let text = parser.text(of: token)
        value = try? FactDocument.value(.string(text), for: table.descriptors[slot])
        if value == nil,
          let other = schema.otherStoresValue(text, forFact: table.names[slot])
        {
          otherStoresValues.append(other)
          return true
        }
      }
    } else {
      // An object or an array is never a fact's value; reading it would only find that out.
      guard !parser.at(UInt8(ascii: "{")), !parser.at(UInt8(ascii: "[")) else { return false }
      let raw = try parser.readValue()
      if raw == .null { return true }
      value = try? FactDocument.value(raw, for: table.descriptors[slot])
    }
    guard let value else { return false }
    if table.notificationOnly[slot] { return passedOver[slot] }
    facts[table.names[slot]] = value
    return true
  }

  // The two below take a string's bytes in place, without a closure: one capturing the table
  // copied it, and retained each of its arrays, for every fact read.

  private func slot(of name: JSONParser.StringToken, in input: UnsafeBufferPointer<UInt8>)
    -> Int?
  {
    switch name {
    case .plain(let range): return table.slot(of: UnsafeBufferPointer(rebasing: input[range]))
    case .decoded(var text): return text.withUTF8 { table.slot(of: $0) }
    }
  }

  private func plainValue(
    _ text: JSONParser.StringToken, in input: UnsafeBufferPointer<UInt8>, slot: Int
  ) -> Value? {
    switch text {
    case .plain(let range):
      return PlainValueReader.read(
        UnsafeBufferPointer(rebasing: input[range]), as: table.types[slot])
    case .decoded(let text): return PlainValueReader.read(text, as: table.types[slot])
    }
  }

  private static func section(_ key: JSONParser.StringToken, in input: UnsafeBufferPointer<UInt8>)
    -> JSONFactsFile.Section?
  {
    switch key {
    case .plain(let range): return section(named: UnsafeBufferPointer(rebasing: input[range]))
    case .decoded(var text): return text.withUTF8(section(named:))
    }
  }

  private static func section(named bytes: UnsafeBufferPointer<UInt8>) -> JSONFactsFile.Section? {
    JSONFactsFile.Section.allCases.first { $0.rawValue.utf8.elementsEqual(bytes) }
  }
}
