import ReckonAppStore
import ReckonSupport

/// Walks a JSON configuration document, naming the exact key (`apps[0].bundleId`) in every error.
public struct ConfigurationReader: Sendable {
  /// The object being read.
  public let members: [String: JSONValue]
  /// Its path from the root, e.g. `sender` or `factSources[1]`.
  public let path: String

  /// Reads an object at `path`.
  public init(_ members: [String: JSONValue], path: String) {
    self.members = members
    self.path = path
  }

  /// The full path of a key of this object.
  public func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  /// A required text value.
  public func string(_ key: String) throws(ConfigurationError) -> String {
    guard let value = try optionalString(key) else {
      throw ConfigurationError(keyPath(key), "is required")
    }
    return value
  }

  /// An optional text value.
  public func optionalString(_ key: String) throws(ConfigurationError) -> String? {
    switch members[key] {
    case nil, .null?: return nil
    case .string(let text)?:
      guard !text.isEmpty else { throw ConfigurationError(keyPath(key), "must not be empty") }
      return text
    default: throw ConfigurationError(keyPath(key), "must be text")
    }
  }

  /// An optional number.
  public func optionalNumber(_ key: String) throws(ConfigurationError) -> Double? {
    switch members[key] {
    case nil, .null?: return nil
    case .integer(let number)?: return Double(number)
    case .number(let number)?: return number
    default: throw ConfigurationError(keyPath(key), "must be a number")
    }
  }

  /// The largest number a positive setting takes: every setting (bytes, connections, rates,
  /// seconds or milliseconds) is far below it, and a setting above it could overflow when
  /// turned into whole bytes or nanoseconds.
  public static let largestSetting: Double = 1_000_000_000

  /// An optional number that must be positive, and at most `largestSetting`.
  public func positiveNumber(_ key: String, default fallback: Double) throws(ConfigurationError)
    -> Double
  {
    guard let number = try optionalNumber(key) else { return fallback }
    guard number > 0 else { throw ConfigurationError(keyPath(key), "must be greater than 0") }
    guard number <= Self.largestSetting else {
      throw ConfigurationError(keyPath(key), "must be at most 1000000000")
    }
    return number
  }

  /// An optional whole number that must be positive, and at most `largestSetting`: for counts,
  /// bytes and milliseconds, where a fraction would be silently cut off.
  public func positiveWholeNumber(_ key: String, default fallback: Int) throws(ConfigurationError)
    -> Int
  {
    let number = try positiveNumber(key, default: Double(fallback))
    guard number.rounded(.towardZero) == number else {
      throw ConfigurationError(keyPath(key), "must be a whole number")
    }
    // Beyond it `Int(number)` would stop the process; nothing configured comes near.
    guard number <= 1e15 else {
      throw ConfigurationError(keyPath(key), "must be at most 1000000000000000")
    }
    return Int(number)
  }

  /// An optional boolean.
  public func bool(_ key: String, default fallback: Bool) throws(ConfigurationError) -> Bool {
    switch members[key] {
    case nil, .null?: return fallback
    case .bool(let flag)?: return flag
    default: throw ConfigurationError(keyPath(key), "must be true or false")
    }
  }

  /// An optional nested object.
  public func object(_ key: String) throws(ConfigurationError) -> ConfigurationReader? {
    switch members[key] {
    case nil, .null?: return nil
    case .object(let nested)?: return ConfigurationReader(nested, path: keyPath(key))
    default: throw ConfigurationError(keyPath(key), "must be an object")
    }
  }

  /// An optional array of objects.
  public func objects(_ key: String) throws(ConfigurationError) -> [ConfigurationReader] {
    switch members[key] {
    case nil, .null?: return []
    case .array(let items)?:
      var readers: [ConfigurationReader] = []
      for (index, item) in items.enumerated() {
        guard case .object(let nested) = item else {
          throw ConfigurationError("\(keyPath(key))[\(index)]", "must be an object")
        }
        readers.append(ConfigurationReader(nested, path: "\(keyPath(key))[\(index)]"))
      }
      return readers
    default: throw ConfigurationError(keyPath(key), "must be a list")
    }
  }

  /// An optional array of text values.
  public func strings(_ key: String) throws(ConfigurationError) -> [String] {
    switch members[key] {
    case nil, .null?: return []
    case .array(let items)?:
      var values: [String] = []
      for (index, item) in items.enumerated() {
        guard case .string(let text) = item else {
          throw ConfigurationError("\(keyPath(key))[\(index)]", "must be text")
        }
        values.append(text)
      }
      return values
    default: throw ConfigurationError(keyPath(key), "must be a list of text")
    }
  }

  /// Fails on keys this object does not know, with a suggestion, so a typo is not silently ignored.
  public func rejectUnknownKeys(_ known: [String]) throws(ConfigurationError) {
    for key in members.keys.sorted() where !known.contains(key) {
      let suggestion = known.min { editDistance(key, $0) < editDistance(key, $1) }
      let hint =
        suggestion.map {
          editDistance(key, $0) <= max(2, key.count / 3) ? " (did you mean '\($0)'?)" : ""
        } ?? ""
      throw ConfigurationError(keyPath(key), "is not a known key\(hint)")
    }
  }

  private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased())
    let b = Array(b.lowercased())
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in 1...max(b.count, 1) where !b.isEmpty {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
}

/// A configuration problem: the key's full path and what is wrong with it.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key, e.g. `apps[0].environment`.
  public let key: String
  /// What is wrong, e.g. `must be Production or Sandbox`.
  public let problem: String

  /// Creates an error for a key.
  public init(_ key: String, _ problem: String) {
    self.key = key
    self.problem = problem
  }

  /// `key: problem`.
  public var description: String { "\(key): \(problem)" }
}
