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
  static let sections = ["byTransactionId", "byAppAccountToken"]

  private(set) var byTransactionId: [String: [String: Value]] = [:]
  private(set) var byAppAccountToken: [String: [String: Value]] = [:]
  /// Which file each key came from, to name both files when two give the same key.
  private var origins: [String: String] = [:]

  /// Reads `files` in order; a key may appear in only one of them.
  init(files: [String], schema: FactSchema, limit: FileSizeLimit = .facts)
    throws(JSONFileFactSourceError)
  {
    for file in files { try read(file, schema: schema, limit: limit) }
  }

  /// The facts for a request: its transaction's, then its account's for facts still missing.
  func facts(for keys: RequestKeys) -> [String: Value] {
    var facts = keys.transactionId.flatMap { byTransactionId[$0] } ?? [:]
    if let token = keys.appAccountToken, let more = byAppAccountToken[token] {
      facts.merge(more) { first, _ in first }
    }
    return facts
  }

  /// Errors name `file` as found (with its folder, when a folder was given), so a problem in
  /// one of many files in a folder can be found.
  private mutating func read(_ file: String, schema: FactSchema, limit: FileSizeLimit)
    throws(JSONFileFactSourceError)
  {
    let name = file
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.json(at: file, limit: limit) } catch {
      throw .unreadable(path: file, reason: error.reason)
    }
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
    for section in JSONFactsFile.sections {
      guard let entries = root[section] else { continue }
      guard let object = entries.objectValue else {
        throw .notAnObject(path: "\(name): \(section)")
      }
      for (key, facts) in object.sorted(by: { $0.key < $1.key }) {
        try add(key, facts, section: section, file: name, schema: schema)
      }
    }
  }

  private mutating func add(
    _ rawKey: String, _ facts: JSONValue, section: String, file: String, schema: FactSchema
  )
    throws(JSONFileFactSourceError)
  {
    let key = section == "byAppAccountToken" ? rawKey.lowercased() : rawKey
    let path = "\(file): \(section).\(rawKey)"
    guard let object = facts.objectValue else { throw .notAnObject(path: path) }
    if let other = origins["\(section).\(key)"] {
      throw .duplicateKey(key: "\(section).\(key)", files: [other, file])
    }
    origins["\(section).\(key)"] = file
    let document: FactDocument
    do { document = try FactDocument(object: object, schema: schema, path: path) } catch {
      throw .invalidFact(error)
    }
    for name in document.values.keys.sorted() where schema.origin(of: name) == .notification {
      throw .notificationFact(path: "\(path): \(name)")
    }
    if section == "byTransactionId" {
      byTransactionId[key] = document.values
    } else {
      byAppAccountToken[key] = document.values
    }
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
    }
  }
}
