import Foundation
import ReckonAppStore
import ReckonPolicy

/// Reads facts from a JSON object whose keys are fact names and whose values are written as in
/// the language (`"usage.consumed": "37.5%"`), or as plain JSON booleans, numbers and strings.
public struct FactDocument: Sendable {
  /// The facts read, by name.
  public let values: [String: Value]

  /// Reads a JSON object; `path` names the object in errors (e.g. `facts.json` or `$.1234`).
  public init(object: [String: JSONValue], schema: FactSchema, path: String)
    throws(FactDocumentError)
  {
    var values: [String: Value] = [:]
    for (name, raw) in object.sorted(by: { $0.key < $1.key }) {
      let location = "\(path).\(name)"
      guard let fact = schema.policySchema.fact(named: name) else {
        let hint = Suggestions.closest(to: name, among: schema.policySchema.facts.map(\.name))
        throw .unknownFact(path: location, suggestion: hint)
      }
      if raw == .null { continue }
      values[name] = try FactDocument.value(raw, for: fact, at: location)
    }
    self.values = values
  }

  /// Reads a whole file holding one JSON object of facts.
  public init(contentsOf url: URL, schema: FactSchema) throws(FactDocumentError) {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.data(at: url.path) } catch {
      throw .unreadable(path: url.path, reason: error.reason)
    }
    guard let object = (try? JSONValue.parse(data))?.objectValue else {
      throw .notAnObject(path: url.path)
    }
    try self.init(object: object, schema: schema, path: url.lastPathComponent)
  }

  static func value(_ raw: JSONValue, for fact: FactDescriptor, at path: String)
    throws(FactDocumentError) -> Value
  {
    switch raw {
    case .bool(let flag):
      guard fact.type == .boolean else {
        throw .wrongType(path: path, message: "\(fact.name) is a \(fact.type), not true/false")
      }
      return .boolean(flag)
    case .integer(let number) where fact.type == .number || fact.type == .timestamp:
      return fact.type == .number ? .number(Double(number)) : .timestamp(Double(number) / 1000)
    case .number(let number) where fact.type == .number || fact.type == .timestamp:
      // A timestamp given as a number is in Apple's UNIX milliseconds.
      return fact.type == .number ? .number(number) : .timestamp(number / 1000)
    case .integer, .number:
      throw .wrongType(
        path: path,
        message:
          "\(fact.name) is a \(fact.type); write it as text, e.g. \(FactDocument.example(fact.type))"
      )
    case .string(let text):
      do {
        return try ValueParser.parse(text, as: fact.type)
      } catch {
        throw .wrongType(path: path, message: "\(fact.name): \(error.description)")
      }
    case .null, .array, .object:
      throw .wrongType(path: path, message: "\(fact.name) must be text, a number or true/false")
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
}

/// Why a facts document could not be read; each case names the JSON path.
public enum FactDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case notAnObject(path: String)
  case unknownFact(path: String, suggestion: String?)
  case wrongType(path: String, message: String)

  /// A sentence naming the file, key and problem.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .notAnObject(let path): "\(path): expected a JSON object of fact names and values"
    case .unknownFact(let path, let suggestion):
      "\(path): unknown fact" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .wrongType(let path, let message): "\(path): \(message)"
    }
  }
}
