import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport
import Testing

/// A policy under which no request of some product type and delivery status would get a reply
/// (Apple's rules refuse every body it decides for them) does not go live unless its file says
/// so; one that answers, or chooses not to, does.
struct AnswerCoverageTests {
  static let prorateEverything = """
    policy "prorate everything"
    version 1
    otherwise refund GRANT_PRORATED
    """

  static func load(_ text: String) -> PolicyLoader.Result {
    PolicyLoader.load(
      SourceFile(path: "policies/example.policy", text: text),
      schema: FactSchema.standard.policySchema
    ).withAnswerCoverage(schema: .standard)
  }

  @Test func aProratedRefundForEverythingIsRefusedNamingWhatGoesUnanswered() {
    let result = Self.load(Self.prorateEverything)
    #expect(result.policy == nil)
    let errors = result.diagnostics.filter(\.isError)
    #expect(errors.map(\.id) == [.unansweredRequests])
    let rendered = result.renderedDiagnostics()
    #expect(
      rendered.contains(
        "policies/example.policy:3:1: error[P0401]: no CONSUMABLE, NON_CONSUMABLE or NON_RENEWING request "
          + "with delivery.status other than DELIVERED would get a reply: 'otherwise' decides it "
          + "and the body would break Apple's rules"), "\(rendered)")
    #expect(rendered.contains("add the line '# reckon: allow-unanswered' to the file"))
  }

  @Test func theOptInCommentLetsItGoLive() {
    let result = Self.load(
      "# reckon: allow-unanswered (support answers undelivered ones by hand)\n"
        + Self.prorateEverything)
    #expect(result.policy != nil)
    #expect(!result.diagnostics.contains { $0.id == .unansweredRequests })
  }

  @Test(arguments: [
    ("# reckon: allow-unanswered", true),
    ("   # reckon: allow-unanswered  we answer these by hand", true),
    ("# reckon: allow-unanswered\r", true),
    ("# reckon: allow-unanswered: by hand", false),
    ("# reckon: allow-unansweredness", false),
    ("# Reckon: Allow-Unanswered", false),
    ("rule \"x\" when true then refund DECLINE # reckon: allow-unanswered", false),
  ])
  func theOptInIsAWholeCommentLine(line: String, optsIn: Bool) {
    #expect(AnswerCoverage.optsIn("policy \"p\"\n\(line)\notherwise share data only\n") == optsIn)
  }

  @Test func choosingNotToRespondIsNotAGap() throws {
    let policy = try #require(Self.load("policy \"quiet\"\notherwise do not respond\n").policy)
    #expect(AnswerCoverage(policy: policy, schema: .standard).gaps.isEmpty)
  }

  @Test func onlyTheKindsNoRequestOfWhichIsAnsweredAreNamed() throws {
    let result = Self.load(
      """
      policy "coins at 0%"
      rule "coins"
        when product.type == CONSUMABLE
        then refund GRANT_PRORATED, set consumptionPercentage = 0%
      otherwise refund DECLINE
      """)
    #expect(result.policy == nil)
    let errors = result.diagnostics.filter(\.isError)
    #expect(errors.count == 1)
    #expect(
      errors.first?.message.hasPrefix(
        "no CONSUMABLE request with any delivery.status would get a reply: rule 'coins' decides it")
        == true, "\(errors.first?.message ?? "")")
    #expect(
      result.renderedDiagnostics().contains(
        "policies/example.policy:2:6: error[P0401]: no CONSUMABLE"),
      "\(result.renderedDiagnostics())")
  }

  @Test func aServiceRefusesToStartWithSuchAPolicy() {
    #expect(throws: PolicyBook.Refusal.self) {
      try PolicyBook(
        [
          AppStoreApp(bundleId: "com.example", environment: .sandbox): .text(
            name: "prorate.policy", Self.prorateEverything)
        ],
        schema: .standard)
    }
  }

  @Test func aReloadToSuchAPolicyIsRefusedAndSaidUntilTheFileIsFixed() throws {
    let path = TestScratch.folder.appendingPathComponent("coverage-\(UUID()).policy").path
    try "policy \"p\"\notherwise refund DECLINE\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let book = try PolicyBook(
      [AppStoreApp(bundleId: "com.example", environment: .sandbox): .file(path)],
      schema: .standard)
    #expect(book.refusedFiles().isEmpty)
    #expect(book.filesRefused() == [path: false])

    try Self.prorateEverything.write(toFile: path, atomically: true, encoding: .utf8)
    let refused = book.reload(force: true)
    #expect(refused.map(\.name) == ["policy_refused"])
    #expect(book.refusedFiles().map(\.path) == [path])
    #expect(book.refusedFiles().first?.problem.contains("would get a reply") == true)
    #expect(book.filesRefused() == [path: true])
    #expect(
      book.entry(for: AppStoreApp(bundleId: "com.example", environment: .sandbox))?.text
        .contains("DECLINE") == true)

    try "policy \"p\"\notherwise refund GRANT_FULL\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(book.reload(force: true).map(\.name) == ["policy_applied"])
    #expect(book.refusedFiles().isEmpty)
    #expect(book.filesRefused() == [path: false])
  }
}
