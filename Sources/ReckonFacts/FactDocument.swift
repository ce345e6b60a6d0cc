import Foundation
import ReckonPolicy
import ReckonSupport

/// Reads facts from a JSON object whose keys are fact names and whose values are written as in
/// the language (`"usage.consumed": "37.5%"`), or as plain JSON booleans, numbers and strings.
public struct FactDocument: Sendable {
  /// The facts read, by name.
  public let values: [String: Value]

  /// Reads a JSON object; `path` names the object in errors (e.g. `facts.json` or
  /// `facts.json: byTransactionId.1`). Every fact that cannot be read is reported, not only the
  /// first.
  public init(object: [String: JSONValue], schema: FactSchema, path: String)
    throws(FactDocumentError)
  {
    var values: [String: Value] = [:]
    var problems: [FactDocumentError.Problem] = []
    for (name, raw) in object.sorted(by: { $0.key < $1.key }) {
      guard let fact = schema.policySchema.fact(named: name) else {
        let hint = Suggestions.closest(to: name, among: schema.policySchema.facts.map(\.name))
        problems.append(
          .init(
            fact: name, detail: "unknown fact" + (hint.map { " (did you mean '\($0)'?)" } ?? "")))
        continue
      }
      if raw == .null { continue }
      do throws(FactDocumentError.Problem) {
        values[name] = try FactDocument.value(raw, for: fact)
      } catch {
        // A source serving both stores may mean the other store's word.
        if case .string(let text) = raw, let hint = schema.otherStoresHint(text, forFact: name) {
          problems.append(.init(fact: error.fact, detail: error.detail + "; " + hint))
        } else {
          problems.append(error)
        }
      }
    }
    guard problems.isEmpty else { throw .invalidFacts(path: path, problems: problems) }
    self.values = values
  }

  /// Reads a whole file holding one JSON object of facts; errors name the file by `path` as
  /// given. A file shaped as an App Store notification is refused as what it is, a request.
  public init(path: String, schema: FactSchema) throws(FactDocumentError) {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.json(at: path, limit: .facts) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw .notJSON(
        place: error.place(in: data, path: path), reason: error.reason,
        excerpt: error.excerpt(in: data))
    }
    guard let object = parsed.objectValue else { throw .notAnObject(path: path) }
    if FactDocument.isNotification(object) { throw .requestFile(path: path) }
    try self.init(object: object, schema: schema, path: path)
  }

  /// Whether an object has the keys of an App Store notification (decoded, or as Apple posts
  /// it), none of which is a fact name.
  static func isNotification(_ object: [String: JSONValue]) -> Bool {
    object["notificationType"] != nil || object["signedPayload"] != nil
      || object["data"]?.objectValue != nil
  }

  static func value(_ raw: JSONValue, for fact: FactDescriptor)
    throws(FactDocumentError.Problem) -> Value
  {
    switch raw {
    case .bool(let flag):
      guard fact.type == .boolean else {
        throw .init(fact: fact.name, detail: "is \(fact.type.withArticle), not true/false")
      }
      return .boolean(flag)
    case .integer(let number) where fact.type == .number: return .number(Double(number))
    case .number(let number) where fact.type == .number: return .number(number)
    case .integer(let number) where fact.type == .timestamp:
      return try timestamp(Double(number), fact)
    case .number(let number) where fact.type == .timestamp:
      return try timestamp(number, fact)
    case .integer where fact.type == .boolean, .number where fact.type == .boolean:
      throw .init(fact: fact.name, detail: "is a boolean; write true or false")
    case .integer(let number):
      throw .init(fact: fact.name, detail: Self.asText(String(number), fact.type))
    case .number(let number):
      throw .init(fact: fact.name, detail: Self.asText(String(number), fact.type))
    case .string(let text):
      do {
        return try ValueParser.parse(text, as: fact.type)
      } catch {
        throw .init(fact: fact.name, detail: error.description)
      }
    case .null, .array, .object:
      throw .init(fact: fact.name, detail: "must be text, a number or true/false")
    }
  }

  /// A timestamp given as a number, in Apple's UNIX milliseconds.
  private static func timestamp(_ milliseconds: Double, _ fact: FactDescriptor)
    throws(FactDocumentError.Problem) -> Value
  {
    switch MillisecondTimestamp.value(milliseconds) {
    case .success(let time): return time
    case .failure(let mistake): throw .init(fact: fact.name, detail: mistake.description)
    }
  }

  static func example(_ type: ValueType) -> String {
    switch type {
    case .percent: "\"37.5%\""
    case .money: "\"4.99 USD\""
    case .duration: "\"90 days\""
    case .timestamp: "\"2026-11-01T09:30:00Z\""
    case .enumeration(let enumType): "\"\(enumType.cases.first ?? "")\""
    default: "\"\""
    }
  }

  /// Why a number given for a fact of `type` is refused, and how to write it: a percentage,
  /// money or a duration needs its unit; text is quoted as it is.
  static func asText(_ number: String, _ type: ValueType) -> String {
    switch type {
    case .text: "is text; write it between quotes, \"\(number)\""
    default: "is \(type.withArticle); write it as text, e.g. \(example(type))"
    }
  }
}

/// Why a facts document could not be read; each case names the file, and a fact's problem the
/// fact.
public enum FactDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// One fact that could not be read: which, and what is wrong with it.
  public struct Problem: Error, Hashable, Sendable {
    /// The fact's name as written.
    public let fact: String
    /// What is wrong, without the fact's name, e.g. `'yes' is not a boolean: write true or false`.
    public let detail: String
  }

  /// How many problems a message lists before saying how many more there are.
  static let problemsListed = 10

  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not valid JSON: where (`FILE:LINE:COLUMN`), why, and the line with a caret.
  case notJSON(place: String, reason: String, excerpt: String?)
  /// The JSON is not an object of facts.
  case notAnObject(path: String)
  /// The file is an App Store notification, a request, not facts.
  case requestFile(path: String)
  /// Facts that are unknown or whose values are not of their type, every one of them.
  case invalidFacts(path: String, problems: [Problem])

  /// Sentences naming the file, the fact and the problem, one a line.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .notJSON(let place, let reason, let excerpt):
      JSONParseError.sentence(place: place, reason: reason, excerpt: excerpt)
    case .notAnObject(let path): "\(path): expected a JSON object of fact names and values"
    case .requestFile(let path):
      "\(path): this looks like a request (an App Store notification), not facts; "
        + "pass it with --request"
    case .invalidFacts(let path, let problems):
      Self.lines(path, problems)
    }
  }

  private static func lines(_ path: String, _ problems: [Problem]) -> String {
    var lines = problems.prefix(problemsListed).map { "\(path): \($0.fact): \($0.detail)" }
    if problems.count > problemsListed {
      lines.append("\(path): and \(problems.count - problemsListed) more facts that cannot be read")
    }
    return lines.joined(separator: "\n")
  }
}
