import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonPolicy
import ReckonSupport
import ReckonTools

/// `reckon keys check`: loads the App Store key and shows the token it makes, never the key.
enum KeysCommand: Command {
  static let name = "keys"
  static let subcommands = ["check"]
  static let summary =
    "Check the App Store Connect key: load it, make a token, show its header and claims"
  static let options: [CommandOption] = [
    CommandOption("config", value: "reckon.json"),
    CommandOption("format", value: "FORMAT", help: "text (default) or json"),
  ]
  static let help = """
    Usage: reckon keys check [--config reckon.json] [--format json]

    Loads appStore.privateKeyPath, signs a token for each configured app and prints the token's
    header and claims. The key and the token's signature are never printed. Refuses a key file
    any user may read, write or execute, and warns when its group may.
    """

  static let requiresArguments = true

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let configPath = arguments.option("config") ?? "reckon.json"
    let format = try OutputFormat.option(&arguments) ?? .text
    try arguments.rejectUnknown(positionals: 1)
    // The words are checked before the configuration is read: a mistyped subcommand is the
    // mistake to name, not a reckon.json missing from this folder.
    guard arguments.positionals == ["check"] else {
      guard let word = arguments.positionals.first else {
        throw UsageError("expected 'reckon keys check'")
      }
      let hint = Suggestions.closest(to: word, among: ["check"]).map { " (did you mean '\($0)'?)" }
      throw UsageError("unknown keys command '\(word)'" + (hint ?? "; the only one is check"))
    }
    let configuration = try ReckonConfiguration.load(path: configPath)
    // The file's name says which key App Store Connect made it for, as doctor checks: another
    // key id signs tokens Apple answers 401.
    if let mismatch = configuration.appStoreKey.flatMap(GoLiveDoctor.keyIdMismatch) {
      console.error("reckon keys check: \(mismatch)")
      return 1
    }
    let client = try SenderSetup.client(configuration, transport: CurlHTTPClient()) {
      console.error($0)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var apps: [KeyCheck] = []
    for app in configuration.apps {
      let token = try client.makeToken(bundleId: app.bundleId, now: Date())
      guard let decoded = AppStoreJWT.decodeUnverified(token) else {
        throw UsageError("the token could not be read back")
      }
      apps.append(
        KeyCheck(
          bundleId: app.bundleId, environment: app.environment.rawValue,
          url: client.baseURL(for: app.environment).absoluteString, header: decoded.header,
          claims: decoded.claims))
      guard format == .text else { continue }
      console.out(
        "\(app.bundleId) (\(app.environment.rawValue)) → \(client.baseURL(for: app.environment).absoluteString)"
      )
      console.out("header: " + String(decoding: try encoder.encode(decoded.header), as: UTF8.self))
      console.out("claims: " + String(decoding: try encoder.encode(decoded.claims), as: UTF8.self))
    }
    if format == .json {
      console.out(String(decoding: try encoder.encode(KeyCheckReport(apps: apps)), as: UTF8.self))
      return 0
    }
    console.out("the key loads and signs ES256 tokens")
    return 0
  }

  /// One app's token, as `--format json` writes it.
  struct KeyCheck: Encodable {
    let bundleId: String
    let environment: String
    let url: String
    let header: JSONValue
    let claims: JSONValue
  }

  /// What `--format json` writes: every app's token, and that the key signs.
  struct KeyCheckReport: Encodable {
    let apps: [KeyCheck]
    var signs = true
  }
}
