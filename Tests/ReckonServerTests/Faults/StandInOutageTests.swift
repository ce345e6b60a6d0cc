import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// The App Store answers 500 to everything for an hour of simulated time, then 202. The sender
/// runs its real backoff (30 s doubling to 30 min, seeded jitter) against the stand-in over
/// loopback while a `SimulatedClock` jumps through the hour.
@Suite struct StandInOutageTests {
  static let seed =
    UInt64(ProcessInfo.processInfo.environment["RECKON_OUTAGE_SEED"] ?? "")
    ?? UInt64.random(in: 1...UInt64.max)

  /// One request at the stand-in, on the sender's clock.
  struct Arrival {
    let transactionId: String
    let at: Date
    let status: Int
  }

  @Test func anHourOfServerErrorsExpiresOnlyRepliesDueInsideItAndSendsAllOthersBeforeTheirDeadline()
    async throws
  {
    let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let outageEnd = start.addingTimeInterval(3_600)
    let (standIn, url) = try TestKey.standIn()
    let store = try OutboxFixture.temporaryStore()
    let clock = SimulatedClock(start: start)
    let random = SharedRandom(seed: Self.seed)
    let events = SenderEventLog()
    let sender = OutboxSender(
      store: store, sender: try TestKey.client(url),
      configuration: try SenderSettings.fast(sandboxPerSecond: 5, initialBackoff: 30),
      clock: clock, random: { random.unit() }, maximumConcurrentSends: 1, consentCheck: nil,
      events: events.append)
    let arrivals = ArrivalLog()
    standIn.respond { request in
      let now = clock.now()
      let reply: StandInReply = now < outageEnd ? .serverError : .accepted
      arrivals.append(
        Arrival(transactionId: request.transactionId ?? "", at: now, status: reply.status))
      return reply
    }

    // Deadlines every 3.5 minutes from 3.5 minutes to almost 3 hours: 17 inside the outage, the
    // first one after it at 63 minutes, later than the outage's end plus the one-minute last
    // chance and the pacing of 50 entries at 5/s (10 s), so which end each must reach is certain.
    var bodies: [String: Data] = [:]
    var deadlines: [String: Date] = [:]
    for index in 0..<50 {
      let transaction = "80\(index)"
      let deadline = start.addingTimeInterval(Double(index + 1) * 210)
      let body = Data(
        #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":\#(index * 2_000)}"#
          .utf8)
      _ = try ValidatedConsumptionBody(validating: body, context: .init())
      bodies[transaction] = body
      deadlines[transaction] = deadline
      try OutboxFixture.enqueue(
        in: store, at: deadline.addingTimeInterval(-12 * 3_600), transaction: transaction,
        body: body)
    }

    let wall = ContinuousClock().now
    var drains = 0
    while drains < 5_000 {
      drains += 1
      _ = try await sender.drainDue()
      guard let wake = try store.nextWake() else { break }
      clock.advance(to: wake)
    }
    let elapsed = ContinuousClock().now - wall

    let entries = try store.entries(limit: 100)
    #expect(entries.count == 50)
    var sent = 0
    var expired = 0
    for entry in entries {
      let deadline = try #require(deadlines[entry.transactionId])
      let mine = arrivals.all.filter { $0.transactionId == entry.transactionId }
      #expect(
        mine.allSatisfy { $0.at < deadline }, "\(entry.transactionId) was sent after its deadline")
      #expect(
        try store.attempts(entryId: entry.id).allSatisfy { $0.startedAt < deadline },
        "\(entry.transactionId) was tried after its deadline")
      #expect(entry.body == bodies[entry.transactionId])
      if deadline < outageEnd {
        #expect(entry.state.name == "expired", "\(entry.transactionId) ended \(entry.state.name)")
        #expect(mine.allSatisfy { $0.status == 500 })
        #expect(events.lines.contains { $0.hasPrefix("error: entry \(entry.id) EXPIRED") })
        expired += 1
      } else {
        #expect(entry.state.name == "sent", "\(entry.transactionId) ended \(entry.state.name)")
        #expect(mine.filter { $0.status == 202 }.count == 1)
        #expect(mine.filter { $0.status == 202 }.allSatisfy { $0.at >= outageEnd })
        sent += 1
      }
    }
    #expect(expired == 17)
    #expect(sent == 33)
    // Byte-identical bodies: what reached the stand-in is exactly what was validated and stored.
    #expect(
      standIn.requests.allSatisfy { $0.body == bodies[$0.transactionId ?? ""] && $0.problem == nil }
    )
    let all = arrivals.all
    print(
      "stand-in outage test: seed \(Self.seed), 50 entries, \(sent) sent, \(expired) expired, "
        + "\(all.filter { $0.status == 500 }.count) answers 500 and \(all.filter { $0.status == 202 }.count) "
        + "202 over \(Int(clock.now().timeIntervalSince(start) / 60)) simulated minutes, \(drains) drains, \(elapsed)"
    )
    // Off the pool: shutdown waits for the client's idle keep-alive connection to close.
    await ServerFixture.offPool { standIn.shutdown() }
  }
}
