import Foundation
import ReckonEngine
import ReckonGooglePlay
import ReckonStandIn
import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `reckon standin --google-play`: the Google Play stand-in as a process.
struct GooglePlayStandInRun {
  let configuration: ReckonConfiguration
  let port: Int
  let record: String?
  let createKey: Bool

  func run(_ console: Console) async throws -> Int32 {
    guard let path = configuration.googlePlay?.serviceAccountKeyPath else {
      throw UsageError(
        "the configuration has no googlePlay.serviceAccountKeyPath to take the key from")
    }
    // The port first, so a key created now names the token endpoint that answers.
    let placeholder = URL(string: "http://127.0.0.1:\(port)/token")!
    var created: RSAPrivateKey?
    if createKey, !FileManager.default.fileExists(atPath: path) {
      created = try RSAPrivateKey(generatedFor: "reckon standin test service account")
    }
    let existing = created == nil ? try ServiceAccountKey(path: path) : nil
    let key = created ?? existing!.privateKey
    let email = existing?.clientEmail ?? "reckon-standin@example.iam.gserviceaccount.com"
    let standIn = try GooglePlayStandIn(accountKey: try key.publicKey(), clientEmail: email)
    standIn.acceptsUnopenedReviews = true
    let url = try standIn.start(port: port)
    if let created {
      let account = ServiceAccountKey(
        clientEmail: email, privateKeyId: "standin", privateKey: created,
        tokenURL: standIn.tokenURL ?? placeholder)
      do throws(LocalFileError) {
        try LocalFile.createPrivate(at: path, with: account.json())
      } catch {
        standIn.shutdown()
        throw UsageError("--create-key: \(error)")
      }
    }
    let recorder = try record.map { path throws(UsageError) in
      let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        standIn.shutdown()
        throw UsageError("--record \(path): \(String(cString: strerror(errno)))")
      }
      return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
    FileHandle.standardOutput.write(Data("listening on \(url.absoluteString)\n".utf8))
    var written = 0
    let signals = StopSignals()
    repeat {
      let calls = standIn.calls
      for call in calls.dropFirst(written) { recorder?.write(Self.line(call)) }
      written = calls.count
      try? await Task.sleep(nanoseconds: 100_000_000)
    } while !signals.isStopped
    standIn.shutdown()
    for call in standIn.calls.dropFirst(written) { recorder?.write(Self.line(call)) }
    return 0
  }

  /// One call as a JSON line: endpoint, status, whether recorded, problem, and the body of a
  /// review answer.
  static func line(_ call: GooglePlayStandInCall) -> Data {
    var members: [String: JSONValue] = [
      "status": .integer(call.status), "recorded": .bool(call.recorded),
      "body": .string(String(decoding: call.body, as: UTF8.self)),
    ]
    switch call.endpoint {
    case .token:
      // The assertion is a credential, if only a test one: not written down.
      members["endpoint"] = .string("token")
      members["body"] = nil
    case .certificates: members["endpoint"] = .string("certificates")
    case .reviewRefund(let package, let order):
      members["endpoint"] = .string("reviewrefund")
      members["packageName"] = .string(package)
      members["orderId"] = .string(order)
    case .unknown: members["endpoint"] = .string("unknown")
    }
    if let problem = call.problem { members["problem"] = .string(problem) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return ((try? encoder.encode(JSONValue.object(members))) ?? Data("{}".utf8)) + Data("\n".utf8)
  }
}
