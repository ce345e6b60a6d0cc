import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonHTTP
import ReckonPolicy
import ReckonServer
import Testing

/// Every file under `Fixtures/fuzz-regressions/TARGET/` goes through the same entry as the
/// libFuzzer target of that name (`Fuzz/*Fuzzer.swift`), so an input that once crashed, hung or
/// blew up a fuzzer stays fixed. New crashes are added as files (see `Fuzz/README.md`).
@Suite struct FuzzRegressionTests {
  /// One stored input: the fuzz target it belongs to and its file name.
  struct Input: CustomTestStringConvertible, Sendable {
    let target: String
    let name: String

    var testDescription: String { "\(target)/\(name)" }

    var bytes: [UInt8] {
      get throws {
        Array(try Data(contentsOf: FuzzRegressionTests.folder(target).appendingPathComponent(name)))
      }
    }
  }

  static let targets = ["policy", "jws", "http"]
  /// CPU seconds one input may take: far above what any stored input needs in a debug build
  /// (under 0.2 s), so only a hang or a blow-up fails. CPU time of the test's own thread, not wall
  /// time, so a machine busy with other tests or builds does not make it flaky.
  static let cpuSecondsBound = 1.0

  static func folder(_ target: String) -> URL {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
      .appendingPathComponent("fuzz-regressions/\(target)")
  }

  static func inputs(_ target: String) -> [Input] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder(target).path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { Input(target: target, name: $0) }
  }

  static let all = targets.flatMap(inputs)

  @Test(arguments: targets)
  func everyFuzzTargetHasRegressionInputs(target: String) {
    #expect(!Self.inputs(target).isEmpty, "Fixtures/fuzz-regressions/\(target) is empty")
  }

  @Test(arguments: all)
  func aStoredFuzzInputIsHandledWithoutCrashingAndQuickly(_ input: Input) throws {
    let bytes = try input.bytes
    let started = Self.threadCPUSeconds()
    switch input.target {
    case "policy": Self.policy(bytes)
    case "jws": Self.jws(bytes)
    default: Self.http(bytes)
    }
    let spent = Self.threadCPUSeconds() - started
    #expect(spent < Self.cpuSecondsBound, "\(input.testDescription) took \(spent) s of CPU")
  }

  /// The CPU time this thread has used; a synchronous test runs on one thread throughout.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// As `Fuzz/PolicyFuzzer.swift`: load (lex, parse, check, compile), render diagnostics, decide.
  static func policy(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let result = PolicyLoader.load(
      SourceFile(path: "fuzz.policy", text: text), schema: FactSchema.standard.policySchema)
    _ = result.renderedDiagnostics()
    if let policy = result.policy {
      _ = policy.evaluate(policy.makeFacts(), trace: true)
    }
  }

  static let verifier = NotificationVerifier(
    apps: [AcceptedApp(bundleId: "com.example", appAppleId: 1234, environment: .sandbox)],
    roots: AppleRootCertificates.defaultRoots())

  /// As `Fuzz/JWSFuzzer.swift`: the bytes as a webhook body and as a bare JWS; each must be
  /// refused with a typed failure (none of the stored inputs is a valid notification).
  static func jws(_ bytes: [UInt8]) {
    let data = Data(bytes)
    #expect(throws: VerificationFailure.self) { try verifier.verify(body: data) }
    #expect(throws: VerificationFailure.self) {
      try verifier.verify(signedPayload: String(decoding: data, as: UTF8.self))
    }
  }

  /// As `Fuzz/HTTPFuzzer.swift`: the first byte picks where the input is split into two feeds.
  static func http(_ bytes: [UInt8]) {
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var parser = HTTPRequestParser(
      limits: .init(maximumHeaderBytes: 2_048, maximumHeaderCount: 32, maximumBodyBytes: 4_096))
    for chunk in [bytes[..<split], bytes[split...]] {
      parser.feed(chunk)
      var requests = 0
      while requests < 64 {
        guard (try? parser.next()) != nil else { break }
        requests += 1
      }
    }
  }
}
