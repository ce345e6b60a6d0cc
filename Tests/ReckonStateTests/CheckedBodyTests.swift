import Foundation
import ReckonState
import Testing

/// A body reaches the outbox only through its store's rules.
struct CheckedBodyTests {
  /// Rules of a store with no Apple word in it: a body must not be empty.
  struct NotEmpty: BodyRules {
    func violation(of body: Data, context: BodyContext) -> String? {
      body.isEmpty ? "the body is empty (\(context.values["kind"] ?? "any"))" : nil
    }
  }

  @Test func aBodyThatBreaksTheRulesIsRefusedSayingWhy() {
    #expect(throws: StateError.invalidBody("the body is empty (gift)")) {
      try CheckedBody(Data(), context: BodyContext(["kind": "gift"]), rules: NotEmpty())
    }
  }

  @Test func aBodyThatKeepsTheRulesIsKeptExactlyWithItsContext() throws {
    let bytes = Data("{ \"a\" : 1 }".utf8)
    let checked = try CheckedBody(bytes, context: BodyContext(["kind": "gift"]), rules: NotEmpty())
    #expect(checked.bytes == bytes)
    #expect(checked.context.values == ["kind": "gift"])
  }
}
