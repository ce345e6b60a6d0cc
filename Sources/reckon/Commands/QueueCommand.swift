import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonPolicy
import ReckonState
import ReckonStateSQLite
import ReckonSupport

/// `reckon queue list|show|approve|set|retry|drop`: looks at and steers the outbox.
enum QueueCommand: Command {
  static let name = "queue"
  static let summary = "List, show, approve, edit, retry or drop outbox entries"
  /// Alone it names no subcommand: its usage comes before looking for a configuration to open.
  static let requiresArguments = true
  static let options: [CommandOption] = [
    CommandOption("state", value: "STATE"),
    CommandOption("limit", value: "N"),
    CommandOption("format", value: "text|json"),
    CommandOption("config", value: "reckon.json"),
  ]
  static let help = """
    Usage: reckon queue list [--state STATE] [--limit N] [--format text|json] [--config reckon.json]
           reckon queue show ID [--format text|json]
           reckon queue approve ID          send a held entry now, as decided
           reckon queue set ID FIELD=VALUE ...   change body fields (validated) and send now
                                            (a held, pending or failed entry)
           reckon queue retry ID            try a failed or pending entry again now
                                            (a held entry: use approve or set)
           reckon queue drop ID             never send the entry

    Every subcommand takes --config reckon.json (the state database is its state.path).
    States: held, pending, sending, sent, failed, expired, dropped; --state takes one of them.
    list shows held, pending, sending and failed entries first, earliest deadline first, then
    sent, expired and dropped ones, latest deadline first;
    at most --limit of them (1000 unless given), saying on stderr when more match.
    show gives the decision the entry came from: which rule decided and why, the facts it read
    and, for a held entry, when it was held and when it will be sent as decided.

    set changes only the fields of Apple's ConsumptionRequest: deliveryStatus and
    refundPreference (Apple's names, e.g. DELIVERED, DECLINE), sampleContentProvided (true or
    false) and consumptionPercentage, as a percentage (50%) or in Apple's milli-percent (50000;
    a bare 1 to 100 is refused as ambiguous: write 94%, or 0.094% if that is meant).
    refundPreference=none and consumptionPercentage=none leave those fields out (share data
    only). Each field may be given once. Any other field is refused. customerConsented cannot be set: no reply is sent without the
    customer's consent. Example: reckon queue set 7 refundPreference=DECLINE consumptionPercentage=0%
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    // The options first: a state database given as --state is explained even without a config.
    let state = try stateName(arguments.option("state"))
    let configuration = try ReckonConfiguration.load(
      path: arguments.option("config") ?? "reckon.json")
    let json = try format(&arguments)
    let limit = try listLimit(arguments.option("limit"))
    try arguments.rejectUnknown(positionals: .max)
    var words = arguments.positionals
    guard !words.isEmpty else {
      throw UsageError("expected list, show, approve, set, retry or drop")
    }
    let verb = words.removeFirst()
    let listOptions = (state == nil ? [] : ["--state"]) + (limit == nil ? [] : ["--limit"])
    try checkWords(verb, words, listOptions: listOptions)
    // Looking never creates or migrates a database; changing one needs a Reckon database too.
    let reads = verb == "list" || verb == "show"
    let store = try SQLiteStateStore(
      path: configuration.statePath, rules: .appStore, durability: configuration.stateDurability,
      access: reads ? .readOnly : .existing)
    if verb == "list" {
      let states = state.map { [$0] } ?? []
      let limit = limit ?? defaultListLimit
      let entries = try store.entries(states: states, limit: limit)
      let now = Date()
      var table = QueueTable.render(entries, now: now)
      if entries.isEmpty, let state {
        // "The outbox is empty" beside a thousand sent entries would mislead.
        let others = try store.entryCount()
        table = "no \(state) entries" + (others > 0 ? " (\(others) in other states)" : "")
      }
      console.out(json ? try encode(entries.map { EntryReport($0, now: now) }) : table)
      let overdue = entries.count { $0.isOverdue(at: now) }
      if overdue > 0 {
        // The sender expires such an entry when it next looks; until then nothing else says so.
        console.error(
          "\(overdue) \(overdue == 1 ? "entry is" : "entries are") past the deadline and not sent: "
            + "is a sender running? (reckon serve with an appStore key, or reckon send)")
      }
      // Only a full list can leave entries out; the note goes to stderr so stdout stays parsable.
      if entries.count == limit {
        let total = try store.entryCount(states: states)
        if total > entries.count {
          let which =
            state.map { "\($0) entries; use --limit" } ?? "entries; use --limit or --state"
          console.error("showing \(entries.count) of \(total) \(which) to see others")
        }
      }
      return 0
    }
    guard let idText = words.first, let id = Int64(idText) else {
      throw UsageError(
        words.first.map { "'\($0)' is not an entry ID (a number, as queue list shows)" }
          ?? "\(verb) needs an entry ID")
    }
    let now = Date()
    let entry: OutboxEntry
    switch verb {
    case "show":
      let shown = try store.entry(id: id)
      let report = EntryReport(
        shown, attempts: try store.attempts(entryId: id),
        decision: try store.decision(id: shown.decisionId))
      // Rule names, fact values and Apple's error messages are anyone's text: `text` escapes them.
      console.out(json ? try encode(report) : report.text)
      return 0
    case "approve":
      entry = try store.modifyEntry(id: id, now: now, note: note("approved")) {
        entry throws(OutboxCommandRefused) in try entry.approve(now: now)
      }
    case "retry":
      entry = try store.modifyEntry(id: id, now: now, note: note("retried")) {
        entry throws(OutboxCommandRefused) in try entry.retry(now: now)
      }
    case "drop":
      entry = try store.modifyEntry(id: id, now: now, note: note("dropped")) {
        entry throws(OutboxCommandRefused) in try entry.drop(now: now)
      }
    case "set":
      let assignments = Array(words.dropFirst())
      let edit = try bodyEdit(assignments)
      entry = try store.modifyEntry(
        id: id, now: now, note: note("set \(assignments.joined(separator: " "))")
      ) { entry throws(OutboxCommandRefused) in
        guard let body = edit.applied(to: entry.body) else {
          throw OutboxCommandRefused(description: "the stored body is not a JSON object")
        }
        try entry.edit(body: body, now: now)
      }
    default: throw UsageError("unknown queue command '\(verb)'")
    }
    console.out(json ? try encode(EntryReport(entry)) : "entry \(id): \(entry.state.name)")
    if let note = pauseNote(entry, store: store, now: now) { console.error(note) }
    return 0
  }

  /// When the entry's app is paused after a credentials problem, says so: the command took
  /// effect, but nothing of the app goes out before the pause ends, and "pending" alone would
  /// suggest the entry is on its way. On stderr, so `--format json` stays parsable; a pause that
  /// cannot be read costs the note, not the exit status of a command that took effect.
  /// So is Apple's rate limit (a 429's Retry-After), which holds the app's sends back the same
  /// way.
  private static func pauseNote(_ entry: OutboxEntry, store: any StateStore, now: Date) -> String? {
    guard case .pending = entry.state else { return nil }
    if let pause = (try? store.pauses())?.first(where: { $0.app == entry.app && $0.until > now }) {
      let until = ISO8601DateFormatter().string(from: pause.until)
      return "note: sending for \(entry.app) is paused "
        + "until \(until) after a credentials problem: \(pause.reason); entry \(entry.id) goes "
        + "out then (run reckon keys check to see the token Reckon makes)"
    }
    if let until = (try? store.throttles(now: now))?[entry.app] {
      return "note: Apple rate-limited \(entry.app) until "
        + "\(ISO8601DateFormatter().string(from: until)) (its Retry-After); entry \(entry.id) "
        + "goes out then"
    }
    return nil
  }

  /// What the entry's history records of a command: what was done, with `reckon queue`, by whom.
  private static func note(_ done: String) -> String {
    "\(done) with reckon queue by \(ProcessInfo.processInfo.userName)"
  }

  /// Refuses words a verb does not take, before anything is opened: `approve 3 4` would
  /// otherwise approve entry 3 and say nothing of 4.
  private static func checkWords(_ verb: String, _ words: [String], listOptions: [String])
    throws(UsageError)
  {
    let verbs = ["list", "show", "approve", "set", "retry", "drop"]
    guard verbs.contains(verb) else {
      let suggestion = Suggestions.closest(to: verb, among: verbs)
      throw UsageError(
        "unknown queue command '\(verb)'\(suggestion.map { " (did you mean '\($0)'?)" } ?? "")")
    }
    if let option = listOptions.first, verb != "list" {
      throw UsageError("\(option) is for queue list only")
    }
    let extra: ArraySlice<String> =
      switch verb {
      case "list": words[...]
      case "set": []
      default: words.dropFirst()
      }
    if let first = extra.first {
      let what = verb == "list" ? "queue list takes no words" : "queue \(verb) takes one entry ID"
      throw UsageError("unexpected '\(first)': \(what)")
    }
  }

  private static func format(_ arguments: inout Arguments) throws(UsageError) -> Bool {
    try OutputFormat.option(&arguments) == .json
  }

  /// How many entries `queue list` shows without `--limit`.
  static let defaultListLimit = 1_000

  /// `--limit`: a positive whole number, or nil when not given.
  private static func listLimit(_ text: String?) throws(UsageError) -> Int? {
    guard let text else { return nil }
    guard let limit = Int(text), limit > 0 else {
      throw UsageError("--limit must be a positive whole number, not '\(text)'")
    }
    return limit
  }

  /// `--state`: one of the states an entry can be in, so a typo is not "the outbox is empty".
  private static func stateName(_ text: String?) throws(UsageError) -> String? {
    guard let text, !OutboxState.names.contains(text) else { return text }
    // dry-run and report take --state FILE; here it picks entries, and the file comes from --config.
    if text.contains("/") || text.hasSuffix(".sqlite") || text.hasSuffix(".db") {
      throw UsageError(
        "'\(text)' looks like a state database, but queue's --state picks entries by their state "
          + "(\(OutboxState.names.joined(separator: ", "))); queue finds the database through "
          + "--config, from reckon.json's state.path")
    }
    let suggestion = Suggestions.closest(to: text, among: OutboxState.names)
    throw UsageError(
      "unknown state '\(text)'\(suggestion.map { " (did you mean '\($0)'?)" } ?? ""); the states are \(OutboxState.names.joined(separator: ", "))"
    )
  }

  private static func bodyEdit(_ words: [String]) throws(UsageError) -> ConsumptionBodyEdit {
    guard !words.isEmpty else { throw UsageError("set needs at least one FIELD=VALUE") }
    do { return try ConsumptionBodyEdit(assignments: words) } catch {
      throw UsageError(error.description)
    }
  }

  private static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// An entry for `--format json` and `queue show`.
struct EntryReport: Encodable {
  struct Attempt: Encodable {
    let startedAt: Date
    let httpStatus: Int?
    let errorCode: Int?
    let errorMessage: String?
    let result: String
  }

  /// Why the entry holds what it holds: the stored decision it was made from.
  struct Decision: Encodable {
    let decidedAt: Date
    let policy: String
    let policyVersion: String?
    let policySHA256: String
    let action: String
    let rule: String
    let reason: String?
    /// The facts the decision read, with where each came from, as stored.
    let facts: JSONValue?
    /// The stored facts exactly, for the text form.
    let storedFacts: Data
    /// Which rule decided and why, and why each earlier rule did not, as stored: what a person
    /// reviewing a held entry asks first.
    let explanation: DecisionExplanation?

    private enum CodingKeys: String, CodingKey {
      case decidedAt, policy, policyVersion, policySHA256, action, rule, reason, explanation, facts
    }

    init(_ record: DecisionRecord) {
      decidedAt = record.decidedAt
      policy = record.policyName
      policyVersion = record.policyVersion
      policySHA256 = record.policySHA256
      action = record.action
      rule = record.rule
      reason = record.reason
      facts = try? JSONValue.parse(record.factsJSON)
      storedFacts = record.factsJSON
      explanation = record.explanation
    }

    /// The decision line, then one line per fact read (`name = value (source)`); the stored
    /// JSON as it is when it is not the list Reckon writes.
    func lines(_ time: ISO8601DateFormatter) -> [String] {
      let version = policyVersion.map { "version \($0), " } ?? ""
      var lines = [
        "decided at \(time.string(from: decidedAt)): \(action) by rule '\(rule)' of \(policy)"
          + " (\(version)sha256 \(policySHA256.prefix(12)))" + (reason.map { ": \($0)" } ?? "")
      ]
      if let explanation {
        lines += DecisionExplainer.whyLines(explanation)
        let missing = explanation.missingFacts
        lines.append(
          "Missing facts: " + (missing.isEmpty ? "none" : missing.joined(separator: ", ")))
      } else {
        // Said rather than left out, so a missing section is not taken for a display fault.
        lines.append("Why: not recorded with this decision")
      }
      guard case .array(let list)? = facts else {
        return lines + ["facts: " + String(decoding: storedFacts, as: UTF8.self)]
      }
      lines.append(list.isEmpty ? "facts: none read" : "facts:")
      for case .object(let fact) in list {
        guard case .string(let name)? = fact["name"] else { continue }
        var value: String = if case .string(let text)? = fact["value"] { text } else { "missing" }
        // A duration stored in seconds (246 days and some hours) gets its size in words too.
        if case .duration(let seconds)? = try? ValueParser.parse(value, as: .duration),
          let about = Value.approximateDuration(seconds)
        {
          value += " (\(about))"
        }
        let source: String =
          if case .string(let from)? = fact["source"] { " (\(from))" } else { "" }
        lines.append("  \(name) = \(value)\(source)")
      }
      return lines
    }
  }

  let id: Int64
  let state: String
  /// When the entry entered its state (for a held entry, when it was held; for a pending one,
  /// when it became or becomes due).
  let stateAt: Date
  /// When a pending entry waiting to retry (after a failure, a 429 or a pause) is tried next;
  /// nil when it is due now or not pending.
  let nextTryAt: Date?
  /// When a held entry goes out as decided, unless approved, edited or dropped first.
  let releaseAt: Date?
  let reason: String?
  let bundleId: String
  let environment: String
  let transactionId: String
  let deadline: Date
  /// Still waiting (held, pending or sending) with its deadline passed: no sender took it.
  let overdue: Bool
  let attempts: Int
  let interruptedSends: Int
  let lastStatus: Int?
  let lastError: String?
  /// The body as a JSON value, for `--format json` (whose encoder sorts its keys).
  let body: JSONValue?
  let history: [Attempt]?
  let decision: Decision?
  /// The body exactly as stored and sent, for the text form: re-encoding it would reorder its
  /// keys from run to run and could show bytes Apple never received.
  let storedBody: Data

  private enum CodingKeys: String, CodingKey {
    case id, state, stateAt, nextTryAt, releaseAt, reason, bundleId, environment, transactionId,
      deadline, overdue
    case attempts, interruptedSends, lastStatus, lastError, body, history, decision
  }

  init(
    _ entry: OutboxEntry, attempts: [DeliveryAttempt]? = nil, decision: DecisionRecord? = nil,
    now: Date = Date()
  ) {
    self.decision = decision.map(Decision.init)
    id = entry.id
    state = entry.state.name
    // A held state carries its release time; entries are held only when made.
    if case .held(let release) = entry.state {
      stateAt = entry.createdAt ?? release
      releaseAt = release
    } else {
      stateAt = entry.state.time
      releaseAt = nil
    }
    // A pending entry's time is when it may go; in the future it is a next try, not a "since".
    if case .pending(let notBefore) = entry.state, notBefore > now {
      nextTryAt = notBefore
    } else {
      nextTryAt = nil
    }
    reason = entry.state.reason
    bundleId = entry.app.bundleId
    environment = entry.app.environment
    transactionId = entry.transactionId
    deadline = entry.deadline
    overdue = entry.isOverdue(at: now)
    self.attempts = entry.failedTries
    interruptedSends = entry.interruptedSends
    lastStatus = entry.lastStatus
    lastError = entry.lastError
    body = try? JSONValue.parse(entry.body)
    storedBody = entry.body
    history = attempts?.map {
      Attempt(
        startedAt: $0.startedAt, httpStatus: $0.httpStatus, errorCode: $0.errorCode,
        errorMessage: $0.errorMessage, result: $0.result)
    }
  }

  var text: String {
    let time = ISO8601DateFormatter()
    let release = releaseAt.map { ", to be sent as decided at \(time.string(from: $0))" } ?? ""
    let when =
      nextTryAt.map { ", next try at \(time.string(from: $0))" }
      ?? " since \(time.string(from: stateAt))"
    var lines = [
      "entry \(id): \(state)\(when)\(release)\(reason.map { " (\($0))" } ?? "")",
      "app: \(bundleId) (\(environment)), transaction \(transactionId), deadline \(time.string(from: deadline))",
      // `attempts` counts only failed tries, so it is named as such: "attempts: 0" beside a 202
      // read as if nothing had been sent.
      "failed tries: \(attempts), sends interrupted by a crash: \(interruptedSends); last answer: "
        + (lastStatus.map { "HTTP \($0)" } ?? "none") + (lastError.map { " (\($0))" } ?? ""),
    ]
    lines += decision?.lines(time) ?? []
    lines.append("body: " + String(decoding: storedBody, as: UTF8.self))
    for attempt in history ?? [] {
      let parts = [
        // No status for an operator's command or a try that got no answer: nothing to print.
        time.string(from: attempt.startedAt), attempt.result,
        attempt.httpStatus.map { "HTTP \($0)" },
        attempt.errorCode.map(String.init), attempt.errorMessage,
      ]
      lines.append("  " + parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " "))
    }
    // Each line one line: a line break in a rule name, a fact or Apple's message must not
    // start a line of its own that reads as the report's.
    return lines.map(Self.cell).joined(separator: "\n")
  }

  private static func cell(_ text: String) -> String {
    TerminalSafeText.shown(text, oneLine: true)
  }
}

/// The text table of `reckon queue list`.
enum QueueTable {
  static func render(_ entries: [OutboxEntry], now: Date) -> String {
    guard !entries.isEmpty else { return "the outbox is empty" }
    let formatter = ISO8601DateFormatter()
    // ENV tells a transaction's Production and Sandbox entries apart.
    var lines = ["ID\tSTATE\tTRANSACTION\tAPP\tENV\tDEADLINE\tFAILED TRIES\tLAST ERROR"]
    for entry in entries {
      lines.append(
        // A transaction id, bundle id or Apple's error message is anyone's text: a tab or an
        // escape in it must not forge a column or reach the terminal.
        "\(entry.id)\t\(entry.state.name)\(entry.isOverdue(at: now) ? ", overdue" : "")\t\(cell(entry.transactionId))\t\(cell(entry.app.bundleId))\t\(entry.app.environment)\t\(formatter.string(from: entry.deadline))\t\(entry.failedTries)\t\(cell(entry.lastError ?? ""))"
      )
    }
    return lines.joined(separator: "\n")
  }

  private static func cell(_ text: String) -> String {
    TerminalSafeText.shown(text, oneLine: true)
  }
}
