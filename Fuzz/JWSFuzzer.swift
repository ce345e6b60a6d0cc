import Foundation

/// libFuzzer entry point: any bytes as a webhook body or a bare JWS go through decoding and
/// verification against a fixed root and must be refused with a typed failure, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  let verifier = JWSFuzzState.verifier
  _ = try? verifier.verify(body: bytes)
  _ = try? verifier.verify(signedPayload: String(decoding: bytes, as: UTF8.self))
  return 0
}

enum JWSFuzzState {
  static let verifier = NotificationVerifier(
    apps: [AcceptedApp(bundleId: "com.example", appAppleId: 1234, environment: .sandbox)],
    roots: AppleRootCertificates.defaultRoots())
}
