import Foundation
import ReckonEngine
import ReckonPolicy
import ReckonState
import ReckonStateSQLite
import ReckonSupport
import ReckonTools

/// `reckon queue list|show|approve|set|retry|drop`: looks at and steers the outbox.
enum QueueCommand: Command {
  static let name = "queue"
  static let summary = "List, show, approve, edit, retry or drop outbox entries"
  /// Alone it names no subcommand: its usage comes before looking for a configuration to open.
  static let requiresArguments = true
  static let subcommands = ["list", "show", "approve", "set", "retry", "drop"]
  static let options: [CommandOption] = [
    CommandOption("status", value: "STATUS", choices: OutboxState.names),
    CommandOption("state", value: "FILE|URL"),
    CommandOption("limit", value: "N"),
    CommandOption("format", value: "text|json"),
    CommandOption("config", value: "reckon.json"),
  ]
  static let help = """
    Usage: reckon queue list [--status STATUS] [--limit N] [--format text|json]
                             [--state FILE|URL | --config reckon.json]
           reckon queue show ID [--format text|json]
           reckon queue approve ID          send a held entry now, as decided
           reckon queue set ID FIELD=VALUE ...   change body fields (validated) and send now
                                            (a held, pending or failed entry)
           reckon queue retry ID            try a failed or pending entry again now
                                            (a held entry: use approve or set)
           reckon queue drop ID             never send the entry

    Every subcommand works on the state database --state names (a file, or a postgres://
    address), or else the one reckon.json names (state.path or state.url; --config, or
    ./reckon.json). A change made through --state is pushed to disk as state.durability
    "full" does: there is no configuration to say otherwise.
    Statuses: held, pending, sending, sent, failed, expired, dropped; --status takes one of them.
    list shows held, pending, sending and failed entries first, earliest deadline first, then
    sent, expired and dropped ones, latest deadline first;
    at most --limit of them (1000 unless given), saying on stderr when more match.
    show gives the decision the entry came from: which rule decided and why, the facts it read
    and, for a held entry, when it was held and when it will be sent as decided.

    set changes only the fields of Apple's ConsumptionRequest (a Google Play answer cannot be
    changed: approve or drop it): deliveryStatus and
    refundPreference (Apple's names, e.g. DELIVERED, DECLINE), sampleContentProvided (true or
    false) and consumptionPercentage, as a percentage (50%) or in Apple's milli-percent (50000;
    a bare 1 to 100 is refused as ambiguous: write 94%, or 0.094% if that is meant).
    refundPreference=none and consumptionPercentage=none leave those fields out (share data
    only). Each field may be given once. Any other field is refused. customerConsented cannot
    be set: no reply is sent without the customer's consent.
    Example: reckon queue set 7 refundPreference=DECLINE consumptionPercentage=0%
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    // The options first: a state database given as --status is explained even without a config.
    // A status given to --state is a slip for --status (the two differ by a letter), not a file.
    let stateGiven = arguments.option("state")
    if let given = stateGiven, OutboxState.names.contains(given) {
      throw UsageError(
        "queue list picks entries with --status \(given) now: --state names the state database, "
          + "as in dry-run, report and prune")
    }
    let state = try stateName(arguments.option("status"))
    let configGiven = arguments.option("config")
    let json = try format(&arguments)
    let limit = try listLimit(arguments.option("limit"))
    try arguments.rejectUnknown(positionals: .max)
    var words = arguments.positionals
    guard !words.isEmpty else {
      throw UsageError("expected list, show, approve, set, retry or drop")
    }
    let verb = words.removeFirst()
    let listOptions = (state == nil ? [] : ["--status"]) + (limit == nil ? [] : ["--limit"])
    // The words before the configuration: `queue lst` is a typo to name, whatever the folder.
    try checkWords(verb, words, listOptions: listOptions)
    let id = verb == "list" ? nil : try entryID(verb, words.first)
    let (stateChoice, configuration) = try StateFileOption.located(
      state: stateGiven, config: configGiven)
    // Looking never creates or migrates a database; changing one needs a Reckon database too.
    let reads = verb == "list" || verb == "show"
    let held = reads ? nil : try stateChoice.holdAgainstMove()
    defer { held?.release() }
    // Without a configuration to say how durable the service keeps it, an operator's change
    // (rare, and read by the sender next) is kept the surest way.
    let store = try stateChoice.open(
      access: reads ? .readOnly : .existing,
      durability: configuration?.stateDurability ?? .full)
    let outbox = OutboxOperator(store: store)
    let now = Date()
    if verb == "list" {
      try list(outbox, state: state, limit: limit ?? defaultListLimit, json: json, now, console)
      return 0
    }
    guard let id else { preconditionFailure("every verb but list was given an entry ID") }
    let command: OutboxOperator.Command
    switch verb {
    case "show":
      let report = try outbox.report(id, now: now)
      // Rule names, fact values and Apple's error messages are anyone's text: `text` escapes them.
      console.out(json ? try encode(report) : report.text)
      return 0
    case "approve": command = .approve
    case "retry": command = .retry
    case "drop": command = .drop
    case "set":
      // Said before the fields are read as Apple's: a Google Play answer cannot be changed.
      if let refusal = try store.entry(id: id).editRefusal(now: now) { throw refusal }
      let assignments = Array(words.dropFirst())
      command = .set(try bodyEdit(assignments), assignments: assignments)
    default: throw UsageError("unknown queue command '\(verb)'")
    }
    let entry = try outbox.apply(command, to: id, now: now)
    console.out(json ? try encode(OutboxEntryReport(entry)) : "entry \(id): \(entry.state.name)")
    // On stderr, so `--format json` stays parsable.
    if let note = outbox.holdNote(for: entry, now: now) { console.error(note) }
    return 0
  }

  /// `queue list`: the table (or JSON) on stdout; what it leaves out, and entries no sender
  /// took in time, on stderr so stdout stays parsable.
  private static func list(
    _ outbox: OutboxOperator, state: String?, limit: Int, json: Bool, _ now: Date,
    _ console: Console
  ) throws {
    let states = state.map { [$0] } ?? []
    let listing = try outbox.list(states: states, limit: limit, now: now)
    var table = OutboxTable.render(listing.entries, now: now)
    if let state, let others = listing.inOtherStates {
      // "The outbox is empty" beside a thousand sent entries would mislead.
      table = "no \(state) entries" + (others > 0 ? " (\(others) in other states)" : "")
    }
    console.out(
      json ? try encode(listing.entries.map { OutboxEntryReport($0, now: now) }) : table)
    if listing.overdue > 0 {
      // The sender expires such an entry when it next looks; until then nothing else says so.
      console.error(
        "\(listing.overdue) \(listing.overdue == 1 ? "entry is" : "entries are") past the deadline and not sent: "
          + "is a sender running? (reckon serve with an appStore key, or reckon send)")
    }
    if listing.unreadable > 0 {
      console.error(
        "\(listing.unreadable) \(listing.unreadable == 1 ? "entry" : "entries") in the outbox "
          + "could not be read: \(listing.unreadable == 1 ? "its state is not one" : "their states are not ones") "
          + "this Reckon knows")
    }
    if let total = listing.total {
      let which = state.map { "\($0) entries; use --limit" } ?? "entries; use --limit or --status"
      console.error("showing \(listing.entries.count) of \(total) \(which) to see others")
    }
  }

  /// Refuses words a verb does not take, before anything is opened: `approve 3 4` would
  /// otherwise approve entry 3 and say nothing of 4.
  private static func checkWords(_ verb: String, _ words: [String], listOptions: [String])
    throws(UsageError)
  {
    let verbs = subcommands
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

  /// The entry ID `verb` names. IDs count from 1, so a zero or negative one is a mistake in the
  /// command, not an entry that happens to be missing.
  private static func entryID(_ verb: String, _ word: String?) throws(UsageError) -> Int64 {
    guard let word else { throw UsageError("\(verb) needs an entry ID") }
    guard let id = Int64(word), id > 0 else {
      throw UsageError("'\(word)' is not an entry ID (a whole number from 1, as queue list shows)")
    }
    return id
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

  /// `--status`: one of the states an entry can be in, so a typo is not "the outbox is empty".
  private static func stateName(_ text: String?) throws(UsageError) -> String? {
    guard let text, !OutboxState.names.contains(text) else { return text }
    // --status picks entries; the file is --state's, or the configuration's.
    if text.contains("/") || text.hasSuffix(".sqlite") || text.hasSuffix(".db") {
      throw UsageError(
        "'\(text)' looks like a state database, but --status picks entries by their status "
          + "(\(OutboxState.names.joined(separator: ", "))); give the database as --state "
          + "\(text)")
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
