import Foundation
import ReckonPolicy
import ReckonSupport

/// The contents of one or more JSON facts files, indexed by the keys a request is looked up by:
///
/// ```json
/// {
///   "byTransactionId":   { "2000000812345678": { "usage.consumed": "100%" } },
///   "byAppAccountToken": { "7e3fb20b-4cdb-47cc-936d-99d65f608138": { "customer.consented": true } }
/// }
/// ```
///
/// Values are written as in the language, or as plain JSON booleans and numbers; facts for the
/// transaction win over facts for the account.
struct JSONFactsFile: Sendable {
  /// A top-level key of a facts file.
  enum Section: String, CaseIterable, Hashable, Sendable {
    case byTransactionId, byAppAccountToken
  }

  /// One key's facts, and which of `files` gave them, to name both files when two give the key;
  /// with the values it gives in another store's words, which fail a lookup that would use them.
  struct Entry: Equatable, Sendable {
    let facts: [String: Value]
    let file: Int
    var otherStoresValues: [OtherStoresValue] = []
  }

  /// The entries of every section by key (an account token in lower case).
  struct Sections: Equatable, Sendable {
    var byTransactionId: [String: Entry] = [:]
    var byAppAccountToken: [String: Entry] = [:]

    subscript(section: Section) -> [String: Entry] {
      get { section == .byTransactionId ? byTransactionId : byAppAccountToken }
      _modify {
        if section == .byTransactionId { yield &byTransactionId } else { yield &byAppAccountToken }
      }
    }

    var isEmpty: Bool { byTransactionId.isEmpty && byAppAccountToken.isEmpty }
  }

  static let sections = Section.allCases.map(\.rawValue)

  private(set) var entries = Sections()
  /// The files read, as named in errors.
  private var files: [String] = []

  /// Reads `files` in order; a key may appear in only one of them. `quickly: false` reads every
  /// file the thorough way, for tests that compare the two.
  init(files: [String], schema: FactSchema, limit: FileSizeLimit = .facts, quickly: Bool = true)
    throws(JSONFileFactSourceError)
  {
    var reader = quickly ? JSONFactsFileReader(schema: schema) : nil
    for file in files { try read(file, schema: schema, limit: limit, reader: &reader) }
  }

  /// The facts for a request: its transaction's, then its account's for facts still missing.
  /// A value in another store's words is left out and named in `.otherStoresValues`, which
  /// holds the other facts; one the transaction's entry gives hides the account's fact too.
  func facts(for keys: RequestKeys) throws(JSONFileFactSourceError) -> [String: Value] {
    var facts: [String: Value] = [:]
    var unread: [OtherStoresValue] = []
    if let id = keys.transactionId, let entry = entries.byTransactionId[id] {
      facts = entry.facts
      unread = entry.otherStoresValues.map { placed($0, entry) }
    }
    if let token = keys.appAccountToken, let entry = entries.byAppAccountToken[token] {
      if unread.isEmpty, entry.otherStoresValues.isEmpty {
        facts.merge(entry.facts) { first, _ in first }
      } else {
        let given = Set(facts.keys).union(unread.map(\.fact))
        for (name, value) in entry.facts where !given.contains(name) { facts[name] = value }
        unread += entry.otherStoresValues.filter { !given.contains($0.fact) }.map {
          placed($0, entry)
        }
      }
    }
    guard unread.isEmpty else {
      throw .otherStoresValues(FactsInOtherStoresWords(facts: facts, values: unread))
    }
    return facts
  }

  /// `value` placed in its entry's file as well as its section and key.
  private func placed(_ value: OtherStoresValue, _ entry: Entry) -> OtherStoresValue {
    var placed = value
    placed.place = "\(files[entry.file]): \(value.place)"
    return placed
  }

  /// Reads one file straight from its bytes; one the quick reader gives up on, or that gives a
  /// key an earlier file gave, is read thoroughly, to find and word its first problem.
  private mutating func read(
    _ file: String, schema: FactSchema, limit: FileSizeLimit, reader: inout JSONFactsFileReader?
  ) throws(JSONFileFactSourceError) {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.json(at: file, limit: limit) } catch {
      throw .unreadable(path: file, reason: error.reason)
    }
    files.append(file)
    if let read = reader?.read(data, file: files.count - 1), adopt(read) { return }
    try readThoroughly(data, file: file, schema: schema)
  }

  /// Takes in one file's entries, unless it gives a key already given; whether it did.
  private mutating func adopt(_ read: Sections) -> Bool {
    if entries.isEmpty {
      entries = read
      return true
    }
    for section in Section.allCases {
      let given = entries[section]
      guard read[section].keys.allSatisfy({ given[$0] == nil }) else { return false }
    }
    for section in Section.allCases {
      entries[section].merge(read[section]) { first, _ in first }
    }
    return true
  }

  /// Errors name `file` as found (with its folder, when a folder was given), so a problem in
  /// one of many files in a folder can be found.
  private mutating func readThoroughly(_ data: Data, file: String, schema: FactSchema)
    throws(JSONFileFactSourceError)
  {
    let name = file
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw .notJSON(
        place: error.place(in: data, path: file), reason: error.reason,
        excerpt: error.excerpt(in: data))
    }
    guard let root = parsed.objectValue else { throw .notAnObject(path: name) }
    for key in root.keys.sorted() where !JSONFactsFile.sections.contains(key) {
      throw .unknownSection(
        path: "\(name): \(key)",
        suggestion: Suggestions.closest(to: key, among: JSONFactsFile.sections))
    }
    for section in Section.allCases {
      guard let entries = root[section.rawValue] else { continue }
      guard let object = entries.objectValue else {
        throw .notAnObject(path: "\(name): \(section.rawValue)")
      }
      for (key, facts) in object.sorted(by: { $0.key < $1.key }) {
        try add(key, facts, section: section, file: name, schema: schema)
      }
    }
  }

  private mutating func add(
    _ rawKey: String, _ facts: JSONValue, section: Section, file: String, schema: FactSchema
  )
    throws(JSONFileFactSourceError)
  {
    let key = section == .byAppAccountToken ? UUIDText.accountKey(rawKey) : rawKey
    let path = "\(file): \(section.rawValue).\(rawKey)"
    guard var object = facts.objectValue else { throw .notAnObject(path: path) }
    if let other = entries[section][key] {
      throw .duplicateKey(key: "\(section.rawValue).\(key)", files: [files[other.file], file])
    }
    // What only another store the source serves reads: a fact this schema knows is read, to
    // check its type, and then left out; a value in another store's words is kept apart.
    let passedOver = schema.otherStores.passedOverFacts
    var others: [OtherStoresValue] = []
    for (name, raw) in object.sorted(by: { $0.key < $1.key }) {
      if passedOver.contains(name), schema.policySchema.fact(named: name) == nil {
        object[name] = nil
      } else if case .string(let text) = raw,
        let other = schema.otherStoresValue(
          text, forFact: name, at: "\(section.rawValue).\(rawKey)")
      {
        others.append(other)
        object[name] = nil
      }
    }
    let document: FactDocument
    do { document = try FactDocument(object: object, schema: schema, path: path) } catch {
      throw .invalidFact(error)
    }
    var values = document.values
    for name in values.keys.sorted() where schema.origin(of: name) == .notification {
      guard passedOver.contains(name) else { throw .notificationFact(path: "\(path): \(name)") }
      values[name] = nil
    }
    entries[section][key] = Entry(facts: values, file: files.count - 1, otherStoresValues: others)
  }
}

/// Why a JSON facts file could not be used; each case names the file and the JSON path.
public enum JSONFileFactSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file or folder cannot be read.
  case unreadable(path: String, reason: String)
  /// The file is not JSON; `place` is `PATH:LINE:COLUMN`, `excerpt` its line with a caret.
  case notJSON(place: String, reason: String, excerpt: String?)
  /// Where an object was expected, something else was found.
  case notAnObject(path: String)
  /// A top-level key is neither `byTransactionId` nor `byAppAccountToken`.
  case unknownSection(path: String, suggestion: String?)
  /// Two files give facts for the same key.
  case duplicateKey(key: String, files: [String])
  /// A fact is unknown or its value is not of its type.
  case invalidFact(FactDocumentError)
  /// A fact only the signed notification may give.
  case notificationFact(path: String)
  /// A lookup found values in another store's words, and the other facts.
  case otherStoresValues(FactsInOtherStoresWords)

  /// Whether the file or folder could not be read (`unreadable`: missing, no permission, no
  /// `*.json` files), a state that may pass by itself, unlike contents that do not check.
  public var isUnavailable: Bool {
    if case .unreadable = self { true } else { false }
  }

  /// A sentence naming the file, the path and the problem.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .notJSON(let place, let reason, let excerpt):
      JSONParseError.sentence(place: place, reason: reason, excerpt: excerpt)
    case .notAnObject(let path): "\(path): expected a JSON object"
    case .unknownSection(let path, let suggestion):
      "\(path): unknown key; use byTransactionId or byAppAccountToken"
        + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .duplicateKey(let key, let files):
      "\(key) is given by both \(files.joined(separator: " and "))"
    case .invalidFact(let error): error.description
    case .notificationFact(let path): "\(path): only the signed notification may give this fact"
    case .otherStoresValues(let words): words.description
    }
  }
}
