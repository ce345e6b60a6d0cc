import ReckonSupport
import Testing

/// A transport of one's own may name header fields in any case; `header(_:)` finds them all,
/// so Apple's `Retry-After` is not lost on the way.
struct HTTPClientResponseTests {
  @Test(arguments: ["Retry-After", "retry-after", "RETRY-AFTER"])
  func aHeaderGivenInAnyCaseIsFoundInAnyCase(given: String) {
    let response = HTTPClientResponse(status: 429, headers: [given: "5"])
    #expect(response.header("Retry-After") == "5")
    #expect(response.header("retry-after") == "5")
    #expect(response.headers == ["retry-after": "5"])
  }

  @Test func aHeaderSetAfterwardsInAnotherCaseIsFound() {
    var response = HTTPClientResponse(status: 200)
    response.headers["Cache-Control"] = "max-age=60"
    #expect(response.header("cache-control") == "max-age=60")
  }
}
