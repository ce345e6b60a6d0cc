import Foundation
import ReckonHTTP
import ReckonSQLite
import ReckonTestSupport

/// A copy of `examples/` that `reckon doctor` can pass on: the example configuration with the
/// shipped targeted policy, the example facts (the SQLite file built from `facts.sql`), Apple's
/// test key where the configuration names its `.p8`, and the App Store's base URL on loopback.
struct DoctorWorkspace {
  let folder: URL
  var configuration: URL { folder.appendingPathComponent("reckon.json") }
  var keyPath: String { folder.appendingPathComponent("keys/AuthKey_EXAMPLE123.p8").path }
  var statePath: String { folder.appendingPathComponent("reckon-state.sqlite").path }

  /// A fresh workspace whose App Store is `appStore`; `edit` changes the configuration's JSON.
  init(appStore: URL, edit: (inout [String: Any]) -> Void = { _ in }) throws {
    folder = TestScratch.folder.appendingPathComponent("doctor-\(UUID().uuidString)")
    let manager = FileManager.default
    try manager.createDirectory(
      at: folder.appendingPathComponent("keys"), withIntermediateDirectories: true)
    let examples = ReckonBinary.packageRoot.appendingPathComponent("examples")
    try manager.copyItem(
      at: examples.appendingPathComponent("facts.json"),
      to: folder.appendingPathComponent("facts.json"))
    let facts = try SQLiteDatabase(
      path: folder.appendingPathComponent("facts.sqlite").path, options: [.readWrite, .create])
    try facts.execute(
      String(contentsOf: examples.appendingPathComponent("facts.sql"), encoding: .utf8))
    try manager.copyItem(atPath: TestKey.path, toPath: keyPath)
    try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
    let data = try Data(contentsOf: examples.appendingPathComponent("reckon.json"))
    var json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    var apps = json["apps"] as? [[String: Any]] ?? []
    apps[0]["policy"] =
      ReckonBinary.packageRoot.appendingPathComponent(
        "policies/targeted.policy"
      ).path
    json["apps"] = apps
    var appStoreKey = json["appStore"] as? [String: Any] ?? [:]
    appStoreKey["baseURL"] = appStore.absoluteString
    json["appStore"] = appStoreKey
    edit(&json)
    try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
      .write(to: configuration)
  }

  /// `text` with this workspace's folder, the package root and loopback ports named, so a
  /// golden file holds the same words on every run.
  func normalized(_ text: String) -> String {
    var text = text.replacingOccurrences(of: folder.path, with: "$WORKSPACE")
      .replacingOccurrences(of: ReckonBinary.packageRoot.path, with: "$ROOT")
    // curl's messages carry the port and the time a refused connection took.
    for (pattern, name) in [
      (#"127\.0\.0\.1:[0-9]+"#, "127.0.0.1:PORT"), (#"port [0-9]+"#, "port PORT"),
      (#"after [0-9]+ ms"#, "after N ms"),
    ] {
      while let range = text.range(of: pattern, options: .regularExpression) {
        text.replaceSubrange(range, with: name)
      }
    }
    return text
  }
}

/// A loopback server that answers as `reckon serve`'s routes do (405 with `Allow: POST` on the
/// webhook path, 200 on `/healthz`, 404 elsewhere), each answer with a `Date` header `skew`
/// seconds off this machine's clock: the App Store's clock and the webhook URL in one.
final class DatedListener: Sendable {
  let server: HTTPServer
  let url: URL

  init(skew: TimeInterval = 0) throws {
    server = HTTPServer(configuration: .init()) { request in
      var response: HTTPResponse
      switch request.path {
      case "/apple/notifications":
        response = .text(405, "method not allowed\n")
        response.headers.append(("Allow", "POST"))
      case "/healthz": response = .json(200, Data(#"{"status":"ok"}"#.utf8))
      default: response = .text(404, "not found\n")
      }
      response.headers.append(("Date", DatedListener.httpDate(Date().addingTimeInterval(skew))))
      return response
    }
    url = URL(string: "http://127.0.0.1:\(try server.start())")!
  }

  func shutdown() { server.shutdown(timeout: 1) }

  /// `Sun, 06 Nov 1994 08:49:37 GMT`.
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
