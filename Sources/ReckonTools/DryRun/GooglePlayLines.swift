import Foundation
import ReckonEngine
import ReckonGooglePlay
import ReckonState

/// The Google Play lines of a requests file, read in file order beside the App Store lines that
/// the bulk or sequential dry-run reads: the reviews to decide, and what was left out.
public struct GooglePlayLines: Sendable {
  /// The reviews, in file order.
  public private(set) var reviews: [PastReview] = []
  /// How many lines were Google Play's (reviews or not, readable or not).
  public private(set) var lines = 0
  /// Other Google Play notifications, left out.
  public private(set) var ignored = 0
  /// Reviews for packages the configuration does not list, left out as serve refuses them.
  public private(set) var otherApps = 0
  /// Lines that could not be read, left out on request.
  public private(set) var unreadable = UnreadableLines()
  /// Google's voided purchases, which close a review as Apple's verdicts close a request.
  public private(set) var verdicts = StoreVerdicts()

  /// Reads the lines of `lines` at `indices` (`DryRunResult.googlePlayLines`, which the App
  /// Store readers found to be Google Play's); with `packages`, reviews for others are counted
  /// and left out; with `skipBadLines`, so are lines that cannot be read, which otherwise throw.
  public init(
    _ lines: RequestLines, indices: [Int], packages: Set<String>?, skipBadLines: Bool
  ) throws(DryRunError) {
    for index in indices.sorted() {
      let data = lines.data(index)
      self.lines += 1
      let number = Int(lines.numbers[index])
      let line: GooglePlayLine
      do { line = try GooglePlayLine.read(data, path: lines.path, number: number) } catch {
        guard skipBadLines else { throw error }
        unreadable.add(error)
        continue
      }
      add(line, origin: "\(lines.path):\(number)", packages: packages)
    }
  }

  private mutating func add(_ line: GooglePlayLine, origin: String, packages: Set<String>?) {
    switch line {
    case .review(let review, let messageId):
      if let packages, !packages.contains(review.packageName) {
        otherApps += 1
        return
      }
      reviews.append(PastReview(review: review, origin: origin, messageId: messageId))
    case .verdict(let orderId, let date):
      ignored += 1
      verdicts.add(transactionId: orderId, environment: GooglePlayStore.environment, at: date)
    case .otherNotification: ignored += 1
    }
  }
}
