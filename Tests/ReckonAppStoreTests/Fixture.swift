import Foundation
import ReckonAppStore
import ReckonTestSupport

/// Apple's test vectors (`AppleFixtures`), read and picked apart for the payload tests.
enum Fixture {
  struct Missing: Error, CustomStringConvertible {
    let description: String
  }

  static func data(_ name: String) throws -> Data {
    try AppleFixtures.data(name)
  }

  static func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
    try AppStoreJSON.decoder().decode(T.self, from: data(name))
  }

  /// The base64url payload segment of a compact JWS, decoded without any signature check:
  /// these tests are about reading payloads, verification is a later issue.
  static func jwsPayload(_ name: String) throws -> Data {
    let compact = String(decoding: try data(name), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw Missing(description: "\(name) is not a compact JWS")
    }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let payload = Data(base64Encoded: base64) else {
      throw Missing(description: "\(name) has a payload that is not base64url")
    }
    return payload
  }

  /// Parses JSON into Foundation objects so two documents compare regardless of key order.
  static func parsedJSON(_ data: Data) throws -> NSDictionary {
    guard let object = try JSONSerialization.jsonObject(with: data) as? NSDictionary else {
      throw Missing(description: "not a JSON object")
    }
    return object
  }
}
