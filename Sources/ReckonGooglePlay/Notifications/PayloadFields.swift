import ReckonSupport

/// Typed reads of one JSON object of a notification, each naming the field's path in its error.
struct PayloadFields {
  let members: [String: JSONValue]
  let path: String

  init(_ members: [String: JSONValue], path: String) {
    self.members = members
    self.path = path
  }

  private func place(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

  /// A string field; nil for an absent or null optional one.
  func string(_ name: String, optional: Bool = false) throws(GooglePlayPayloadError) -> String? {
    switch members[name] {
    case .string(let text)?: return text
    case nil, .null?:
      if optional { return nil }
      throw .badField(path: place(name), reason: "is missing")
    default: throw .badField(path: place(name), reason: "is not a string")
    }
  }

  /// A required, non-empty string field.
  func string(_ name: String) throws(GooglePlayPayloadError) -> String {
    guard let text = try string(name, optional: false), !text.isEmpty else {
      throw .badField(path: place(name), reason: "is empty")
    }
    return text
  }

  /// An integer field, written as a JSON number or, as Google writes 64-bit values, a string of
  /// digits; nil for an absent optional one.
  func integer(_ name: String, optional: Bool) throws(GooglePlayPayloadError) -> Int? {
    switch members[name] {
    case .integer(let number)?: return number
    case .string(let text)?:
      if let number = Int(text) { return number }
      throw .badField(path: place(name), reason: "\"\(text)\" is not a whole number")
    case nil, .null?:
      if optional { return nil }
      throw .badField(path: place(name), reason: "is missing")
    default: throw .badField(path: place(name), reason: "is not a whole number")
    }
  }

  /// A required integer field.
  func integer(_ name: String) throws(GooglePlayPayloadError) -> Int {
    guard let number = try integer(name, optional: false) else {
      throw .badField(path: place(name), reason: "is missing")
    }
    return number
  }

  /// A nested object field.
  func object(_ name: String) throws(GooglePlayPayloadError) -> PayloadFields {
    guard case .object(let inner)? = members[name] else {
      throw .badField(path: place(name), reason: "is not an object")
    }
    return PayloadFields(inner, path: place(name))
  }
}
