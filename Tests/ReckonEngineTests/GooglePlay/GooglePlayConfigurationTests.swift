import Foundation
import ReckonEngine
import ReckonGooglePlay
import ReckonHTTP
import ReckonSupport
import ReckonTestSupport
import Testing

/// Google Play apps in `reckon.json`: `apps` entries with `"store": "googlePlay"`, and the
/// `googlePlay` section that says how their pushes are verified and answered.
@Suite struct GooglePlayConfigurationTests {
  static let push =
    #""push": {"audience": "https://r.example.com/google/rtdn", "serviceAccountEmail": "p@x.iam.gserviceaccount.com"}"#

  static func load(_ json: String) throws(ConfigurationError) -> ReckonConfiguration {
    let root = (try? JSONValue.parse(Data(json.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
  }

  @Test func bothStoresAppsAreReadSideBySide() throws {
    let configuration = try Self.load(
      """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"},
                {"store": "googlePlay", "packageName": "com.example.play", "policy": "b.policy"}],
       "googlePlay": {"serviceAccountKeyPath": "sa.json", \(Self.push)}}
      """)
    #expect(configuration.apps.map(\.bundleId) == ["com.example"])
    #expect(configuration.googlePlayApps.map(\.packageName) == ["com.example.play"])
    #expect(configuration.googlePlayApps.first?.policyPath == "/tmp/b.policy")
    let google = try #require(configuration.googlePlay)
    #expect(google.serviceAccountKeyPath == "/tmp/sa.json")
    #expect(google.pushPath == "/google/rtdn")
    #expect(google.refreshKeys)
    #expect(google.keysURL == "https://www.googleapis.com/oauth2/v3/certs")
  }

  /// A service sends when some store it answers has its credentials: the App Store key, or the
  /// Google Play service account of Google Play apps.
  @Test(arguments: [
    (#"{"apps": [\#(apple)]}"#, false),
    (#"{"apps": [\#(apple)], "appStore": {\#(appStoreKey)}}"#, true),
    (#"{"apps": [\#(play)], "googlePlay": {"serviceAccountKeyPath": "sa.json", \#(push)}}"#, true),
    (#"{"apps": [\#(play)], "googlePlay": {\#(push)}}"#, false),
    (
      #"{"apps": [\#(apple)], "googlePlay": {"serviceAccountKeyPath": "sa.json", \#(push)}}"#, false
    ),
  ])
  func aConfigurationSendsWhenAStoreItAnswersHasItsCredentials(_ json: String, sends: Bool) throws {
    #expect(try Self.load(json).sendsAnswers == sends)
  }

  static let apple = #"{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}"#
  static let play =
    #"{"store": "googlePlay", "packageName": "com.example.play", "policy": "b.policy"}"#
  static let appStoreKey =
    #""issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "ABC123DEFG", "privateKeyPath": "key.p8""#

  @Test(arguments: [
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.example.play", "policy": "b.policy"}]}"#,
      "googlePlay: is required with a Google Play app"
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "example", "policy": "b.policy"}], "googlePlay": {\#(push)}}"#,
      "apps[0].packageName: must be the app's package name"
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}, {"store": "googlePlay", "packageName": "com.a.b", "policy": "c.policy"}], "googlePlay": {\#(push)}}"#,
      "apps[1]: package 'com.a.b' is already configured by apps[0]"
    ),
    (
      #"{"apps": [{"store": "google", "packageName": "com.a.b", "policy": "b.policy"}]}"#,
      "apps[0].store: is appStore or googlePlay, not \"google\""
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {}}"#,
      "googlePlay.push: is required"
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {"push": {"path": "/apple/notifications", "audience": "a", "serviceAccountEmail": "p@x"}}}"#,
      "googlePlay.push.path: /apple/notifications is taken by server.webhookPath"
    ),
    (
      #"{"apps": [{"packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {\#(push)}}"#,
      #"apps[0].packageName: is a Google Play app's key: add "store": "googlePlay" to this app (an App Store app names its bundleId)"#
    ),
    (
      #"{"apps": [{"store": "googlePlay", "bundleId": "com.a.b", "policy": "b.policy"}], "googlePlay": {\#(push)}}"#,
      "apps[0].bundleId: is an App Store app's key, and this app's store is googlePlay, which names its packageName"
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {"push": {"path": "/google?x", "audience": "a", "serviceAccountEmail": "p@x"}}}"#,
      "googlePlay.push.path: must be a path alone, without spaces, control characters, '?' or '#'"
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {"baseURL": "http://example.com", \#(push)}}"#,
      "googlePlay.baseURL: must be https, or http on loopback"
    ),
    (
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {"push": {"audience": "a", "serviceAccountEmail": "p@x", "refreshKeys": false}}}"#,
      "googlePlay.push.keysFile: is required when refreshKeys is false"
    ),
  ])
  func aGooglePlaySettingThatCannotWorkIsRefusedWithItsKey(json: String, message: String) {
    let error = #expect(throws: ConfigurationError.self) { try Self.load(json) }
    #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
  }
}

extension GooglePlayConfigurationTests {
  /// The service account's signed assertion is good for an hour of tokens: a key file whose
  /// token_uri is plain http to another machine is refused, as a plain-http baseURL is.
  @Test(arguments: [
    ("http://oauth.example.com/token", false), ("https://oauth2.googleapis.com/token", true),
    ("http://127.0.0.1:8089/token", true),
  ])
  func aKeyWhoseTokenURLIsPlainHTTPElsewhereIsRefused(_ url: String, _ taken: Bool) throws {
    let path = TestScratch.folder.appendingPathComponent("sa-\(UUID().uuidString).json").path
    let key = ServiceAccountKey(
      clientEmail: "reckon@example.iam.gserviceaccount.com", privateKeyId: nil,
      privateKey: try RSAPrivateKey(generatedFor: "token uri"), tokenURL: URL(string: url)!)
    try key.json().write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    let configuration = try Self.load(
      #"{"apps": [{"store": "googlePlay", "packageName": "com.a.b", "policy": "b.policy"}], "googlePlay": {"serviceAccountKeyPath": "\#(path)", \#(Self.push)}}"#
    )
    let settings = try #require(configuration.googlePlay)
    do {
      _ = try GooglePlaySetup.client(settings, transport: CurlHTTPClient())
      #expect(taken)
    } catch {
      #expect(!taken, "\(error)")
      #expect(error == .unsafeTokenURL(path: path, url: url))
    }
  }
}
