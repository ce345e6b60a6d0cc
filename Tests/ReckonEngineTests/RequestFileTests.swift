import Foundation
import ReckonEngine
import Testing

/// Reading CONSUMPTION_REQUEST files in Apple's shape for `reckon eval` and dry-runs.
struct RequestFileTests {
  @Test func theBundledExampleReadsWithItsDecodedTransaction() throws {
    let request = try RequestFile.load(path: Repository.path("examples/eval/request.json"))
    #expect(request.transactionId == "2000000812345678")
    #expect(request.transaction.type == .consumable)
    #expect(request.notification.data?.consumptionRequestReason == .unsatisfiedWithPurchase)
    #expect(request.receivedAt == request.notification.signedDate)
    #expect(request.deadline == request.receivedAt.addingTimeInterval(12 * 3_600))
    #expect(request.keys.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
  }

  @Test func nowOverridesTheReceiveTime() throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let request = try RequestFile.load(
      path: Repository.path("examples/eval/request.json"), now: now)
    #expect(request.receivedAt == now)
  }

  struct BadFile: CustomTestStringConvertible, Sendable {
    let json: String
    let expected: String
    var testDescription: String { expected }
  }

  @Test(arguments: [
    BadFile(json: "[]", expected: "expected a JSON object"),
    BadFile(json: #"{"notificationType":"CONSUMPTION_REQUEST"}"#, expected: "no 'data' object"),
    BadFile(
      json: #"{"usage.consumed": "40%", "customer.consented": true}"#,
      expected: "this looks like facts (fact names and values), not a request"),
    BadFile(
      json:
        #"{"notificationType":"CONSUMPTION_REQUEST","data":{"signedTransactionInfo":"eyJ.a.b"}}"#,
      expected: "still signed"),
    BadFile(
      json: #"{"notificationType":"REFUND","signedDate":1,"data":{"signedTransactionInfo":{}}}"#,
      expected: "REFUND notification"),
    BadFile(
      json: #"{"notificationType":"CONSUMPTION_REQUEST","data":{"signedTransactionInfo":{}}}"#,
      expected: "no signedDate"),
  ])
  func badRequestFilesAreRefusedWithAClearReason(_ file: BadFile) {
    #expect {
      _ = try RequestFile.decode(Data(file.json.utf8), path: "r.json")
    } throws: { error in
      "\(error)".contains(file.expected) && "\(error)".hasPrefix("r.json")
    }
  }

  /// A request file (`reckon eval --request`) that is not JSON is placed at its line and
  /// column with the line and a caret, as `reckon.json` and `--facts` are.
  @Test func aSyntaxErrorInARequestFileIsPlacedAtItsLineAndColumn() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("request-\(UUID().uuidString).json").path
    try Data("{\n  \"notificationType\": CONSUMPTION_REQUEST\n}\n".utf8)
      .write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = try #require(throws: RequestFile.Failure.self) {
      try RequestFile.load(path: path)
    }
    #expect(
      error.description == """
        \(path):2:23: is not valid JSON: unexpected character
            2 |   "notificationType": CONSUMPTION_REQUEST
              |                       ^
        """)
  }
}
