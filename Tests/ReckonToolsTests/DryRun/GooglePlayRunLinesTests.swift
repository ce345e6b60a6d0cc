import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonTools

/// `--store googlePlay` over a requests file: the App Store lines are left out, so they are
/// counted from what they claim, with no signature verified and no error, while a line of
/// neither store still stops the run as in any dry-run.
struct GooglePlayRunLinesTests {
  /// One line of a requests file and what a Google Play run makes of it.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let line: @Sendable () throws -> String
    let isGooglePlay: Bool
    let isAppStoreRequest: Bool

    var testDescription: String { name }
  }

  static func signed(_ type: String) -> @Sendable () throws -> String {
    {
      var notification = SimulatedNotification()
      notification.type = type
      // A CA no configuration trusts: verifying the line would refuse it.
      return String(
        decoding: try notification.body(signedBy: LocalCertificateAuthority()), as: UTF8.self)
    }
  }

  static let cases: [Case] = [
    Case(
      name: "a Google Play push",
      line: { GooglePlayLinesTests.push(GooglePlayLinesTests.review, id: "m") },
      isGooglePlay: true, isAppStoreRequest: false),
    Case(
      name: "a signed request no root vouches for", line: signed("CONSUMPTION_REQUEST"),
      isGooglePlay: false, isAppStoreRequest: true),
    Case(
      name: "another signed notification", line: signed("REFUND"), isGooglePlay: false,
      isAppStoreRequest: false),
    Case(
      name: "a signed payload that is no JWS", line: { #"{"signedPayload": "a.b"}"# },
      isGooglePlay: false, isAppStoreRequest: false),
    Case(
      name: "a decoded request",
      line: {
        let requests = try String(
          contentsOfFile: try DryRunFixture.shared().files.requests, encoding: .utf8)
        return String(requests.prefix { $0 != "\n" })
      }, isGooglePlay: false, isAppStoreRequest: true),
    Case(
      name: "a decoded request of no readable shape",
      line: { #"{"notificationType": "CONSUMPTION_REQUEST", "data": 5}"# }, isGooglePlay: false,
      isAppStoreRequest: true),
    Case(
      name: "another decoded notification", line: { #"{"notificationType": "TEST", "data": {}}"# },
      isGooglePlay: false, isAppStoreRequest: false),
  ]

  @Test(arguments: cases)
  func aLineIsToldApartWithoutVerifyingOrStopping(_ line: Case) throws {
    let file = try GooglePlayLinesTests.lines([try line.line()])
    let read = try DryRunSetup.googlePlayLines(file)
    #expect(read.googlePlay == (line.isGooglePlay ? [0] : []))
    #expect(read.appStoreRequests == (line.isAppStoreRequest ? 1 : 0))
    #expect(read.unreadable.count == 0)
  }

  /// What a run of every line makes of the signed request: verified, so refused.
  @Test func theSameSignedRequestStopsARunThatDecidesTheAppStore() throws {
    let file = try GooglePlayLinesTests.lines([try Self.signed("CONSUMPTION_REQUEST")()])
    #expect(throws: DryRunError.self) { try DryRunSetup.pastRequests(file, verifier: nil) }
  }

  @Test(arguments: ["{not json", "[1]", #"{"foo": 1}"#])
  func aLineOfNeitherStoreStopsTheRunUnlessBadLinesAreSkipped(_ bad: String) throws {
    let file = try GooglePlayLinesTests.lines([
      GooglePlayLinesTests.push(GooglePlayLinesTests.review, id: "m"), bad,
    ])
    #expect {
      try DryRunSetup.googlePlayLines(file)
    } throws: { error in
      guard let error = error as? DryRunError, case .badLine(_, let line, _) = error else {
        return false
      }
      return line == 2
    }
    let skipped = try DryRunSetup.googlePlayLines(file, skipBadLines: true)
    #expect(skipped.googlePlay == [0])
    #expect(skipped.unreadable.count == 1)
    #expect(skipped.appStoreRequests == 0)
  }
}
