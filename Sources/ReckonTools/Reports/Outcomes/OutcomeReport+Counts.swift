extension OutcomeReport {
  /// What happened to one group of decisions. Apple's outcomes are counted as Apple reports
  /// them; a Google Play review's only outcome is a voided purchase (a refund), Google sends no
  /// decline, so its reviews are counted apart (`googlePlayReviews`, `googlePlayVoided`) and
  /// left out of the refund rates, which would otherwise read 100% for every voided review.
  public struct Counts: Hashable, Sendable {
    /// Decisions in the group.
    public var decisions = 0
    /// Of those, how many have an outcome (refunded or declined, or a Google Play review voided).
    public var withOutcome = 0
    /// Refunded (REFUND, or a Google Play voided purchase), whether or not reversed later.
    public var refunded = 0
    /// Of the refunds, how many were prorated (revocationType REFUND_PRORATED).
    public var prorated = 0
    /// Sum of the prorated refunds' revocationPercentage, in milliunits.
    public var proratedMilliunits = 0
    /// Of the prorated refunds, how many carried a revocationPercentage.
    public var proratedMeasured = 0
    /// Declined (REFUND_DECLINED).
    public var declined = 0
    /// Refunds reversed later (REFUND_REVERSED).
    public var reversed = 0
    /// Refunds of some seats of a multiseat purchase (REFUND with subtype SEATS): an outcome,
    /// neither refunded nor declined, since the transaction stays valid.
    public var seatsRefunded = 0
    /// Of the decisions, how many were Google Play reviews.
    public var googlePlayReviews = 0
    /// Of the Google Play reviews, how many purchases Google voided (refunded).
    public var googlePlayVoided = 0
    /// The money, by ISO 4217 currency.
    public var money: [String: OutcomeMoney] {
      Dictionary(
        moneyByCurrency.map { ($0.currency, $0.sums) }, uniquingKeysWith: { $0.adding($1) })
    }
    /// The money as counted: a few currencies, found by comparison, which a million requests
    /// counted into every group cost far less than hashing each into a dictionary.
    private var moneyByCurrency: [(currency: String, sums: OutcomeMoney)] = []
    /// Decisions whose purchase named no price (every Google Play review), left out of `money`.
    public var unpriced = 0

    /// Decisions with no outcome yet: Apple has said nothing (or, for a Google Play review,
    /// Google has not voided the purchase, which may still come or never will).
    public var noOutcomeYet: Int { decisions - withOutcome }

    /// These counts and `other`'s together.
    func adding(_ other: Counts) -> Counts {
      var sum = self
      sum.decisions += other.decisions
      sum.withOutcome += other.withOutcome
      sum.refunded += other.refunded
      sum.prorated += other.prorated
      sum.proratedMilliunits += other.proratedMilliunits
      sum.proratedMeasured += other.proratedMeasured
      sum.declined += other.declined
      sum.reversed += other.reversed
      sum.seatsRefunded += other.seatsRefunded
      sum.googlePlayReviews += other.googlePlayReviews
      sum.googlePlayVoided += other.googlePlayVoided
      for (currency, sums) in other.moneyByCurrency { sum.addMoney(currency, sums) }
      sum.unpriced += other.unpriced
      return sum
    }

    /// Apple's refunded share of its decisions with an outcome, 0...1, counting a refund Apple
    /// reversed later as refunded (what Apple decided on our answer); nil when no outcome has
    /// arrived. Google Play reviews are left out (see `googlePlayVoidedRate`).
    public var refundRate: Double? {
      let outcomes = withOutcome - googlePlayVoided
      return outcomes == 0 ? nil : Double(refunded - googlePlayVoided) / Double(outcomes)
    }

    /// As `refundRate`, without the refunds Apple reversed later (the money that stayed
    /// refunded); nil when no outcome has arrived.
    public var netRefundRate: Double? {
      let outcomes = withOutcome - googlePlayVoided
      return outcomes == 0
        ? nil : Double(refunded - googlePlayVoided - reversed) / Double(outcomes)
    }

    /// The share of Google Play reviews whose purchase Google voided, 0...1; nil without
    /// reviews. Google sends no decline, so this is over every review, voided or not yet.
    public var googlePlayVoidedRate: Double? {
      googlePlayReviews == 0 ? nil : Double(googlePlayVoided) / Double(googlePlayReviews)
    }

    /// The average share of the price the prorated refunds gave back, in percent; nil when no
    /// prorated refund carried a revocationPercentage.
    public var averageProratedPercentage: Double? {
      // A prorated refund without a percentage is left out rather than counted as 0%.
      proratedMeasured == 0 ? nil : Double(proratedMilliunits) / Double(proratedMeasured) / 1_000
    }

    mutating func add(_ request: ReportedRequest) {
      decisions += 1
      addMoney(request)
      if request.googlePlay {
        googlePlayReviews += 1
        guard request.refunded else { return }
        googlePlayVoided += 1
        withOutcome += 1
        refunded += 1
        return
      }
      guard request.refunded || request.declined || request.seats else { return }
      withOutcome += 1
      if request.seats {
        seatsRefunded += 1
      } else if request.declined {
        declined += 1
      } else {
        refunded += 1
        if request.reversed { reversed += 1 }
        guard request.prorated else { return }
        prorated += 1
        if let percentage = request.revocationPercentage {
          proratedMilliunits += percentage
          proratedMeasured += 1
        }
      }
    }

    private mutating func addMoney(_ request: ReportedRequest) {
      guard let price = request.price, let currency = request.currency else {
        unpriced += 1
        return
      }
      addMoney(
        currency, OutcomeMoney(requests: 1, atStake: price, kept: OutcomeMoney.kept(price, request))
      )
    }

    private mutating func addMoney(_ currency: String, _ sums: OutcomeMoney) {
      if let at = moneyByCurrency.firstIndex(where: { $0.currency == currency }) {
        moneyByCurrency[at].sums = moneyByCurrency[at].sums.adding(sums)
      } else {
        moneyByCurrency.append((currency, sums))
      }
    }

    /// Whether both count the same, money by currency included.
    public static func == (left: Counts, right: Counts) -> Bool {
      left.decisions == right.decisions && left.withOutcome == right.withOutcome
        && left.refunded == right.refunded && left.prorated == right.prorated
        && left.proratedMilliunits == right.proratedMilliunits
        && left.proratedMeasured == right.proratedMeasured && left.declined == right.declined
        && left.reversed == right.reversed && left.seatsRefunded == right.seatsRefunded
        && left.googlePlayReviews == right.googlePlayReviews
        && left.googlePlayVoided == right.googlePlayVoided && left.unpriced == right.unpriced
        && left.money == right.money
    }

    /// Hashes what `==` compares, or enough of it.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(decisions)
      hasher.combine(withOutcome)
      hasher.combine(refunded)
      hasher.combine(declined)
      hasher.combine(money)
    }
  }
}
