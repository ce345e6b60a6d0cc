import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// The fact sources a configuration describes, opened and checked: the schema with every declared
/// custom fact, and the sources as layers in configured order. A query typo, an unknown fact or a
/// bad facts file is a `ConfigurationError` naming the key, at start-up.
///
/// Where the line falls between a source configured wrongly and one that cannot be opened now:
/// what `reckon.json` alone says (type, keys, queries given as text, custom facts) and what a
/// file that can be read says (a query that does not compile against its tables, a column that is
/// not a fact, a JSON file that does not check) is configured wrongly and always stops start-up.
/// A file that cannot be read at all — missing, not readable, a SQLite database locked past its
/// busy timeout, a folder without `*.json` files — may come back by itself: with `.openLater`
/// the source starts unopened and is opened again at each lookup.
public struct FactSourceSetup: Sendable {
  /// What to do with a source whose file cannot be read now.
  public enum Unavailable: Sendable {
    /// Stop with a `ConfigurationError`: a one-off command (eval, dry-run) has nothing to wait for.
    case refuse
    /// Start without it and open it at a later lookup (`reckon serve`, `reckon send`); until then
    /// its lookups fail, so nothing its facts could change is decided or sent.
    case openLater
  }

  /// A source that could not be opened at start-up, and why; it is tried again at each lookup.
  public struct Unopened: Hashable, Sendable, CustomStringConvertible {
    /// The source's name.
    public let source: String
    /// Why it cannot be opened, under its key (`factSources[1].path: cannot open ...`).
    public let problem: ConfigurationError

    /// A warning for the start-up log, naming the source and the problem.
    public var description: String {
      "fact source '\(source)' cannot be opened now (\(problem)); requests and replies that need "
        + "its facts wait, and it is opened again at each lookup"
    }
  }

  /// Reckon's standard facts plus every source's `customFacts`.
  public let schema: FactSchema
  /// The sources with their timeouts, highest precedence first.
  public let layers: [LayeredFactSource.Layer]
  /// The sources that could not be opened now (only with `.openLater`), in configured order.
  public let unopened: [Unopened]
  /// The sources that list usage events (`usageEventsQuery`), with their timeouts.
  public let usageEvents: [UsageEventLayer]

  /// Opens and checks every configured source; one whose file cannot be read now is refused or
  /// opened later, as `unavailable` says. A JSON facts file that changes and no longer reads is
  /// reported to `events` as `factsReloadRefused` when given, else to `warn` as a sentence.
  /// The sources read their files by `sourcesStore`'s schema. When they serve the stores
  /// `alongside` too (a configuration's `stores`), what only those read is let through: the
  /// product and purchase facts Google Play's reviews take from the app's records are left out
  /// for the App Store, whose notification gives them, and an override in the other store's
  /// words fails only a lookup of this store that would use it.
  public init(
    _ configurations: [FactSourceConfiguration],
    events: (@Sendable (ReckonEvent) -> Void)? = nil,
    warn: (@Sendable (String) -> Void)? = nil, unavailable: Unavailable = .refuse,
    currencies: CurrencyRates = .none, sourcesStore: FactSchema.Store = .appStore,
    alongside stores: [FactSchema.Store] = []
  ) throws(ConfigurationError) {
    let schema = try FactSourceSetup.schema(configurations, currencies: currencies)
    let sourcesSchema = schema.schema(for: sourcesStore).readingSources(alongside: stores)
    var layers: [LayeredFactSource.Layer] = []
    var unopened: [Unopened] = []
    for configuration in configurations {
      let opener = try FactSourceSetup.opener(
        configuration, schema: sourcesSchema, events: events, warn: warn)
      let source: any FactSource
      do { source = try opener() } catch {
        guard case .openLater = unavailable, error.isUnavailable else { throw error.problem }
        unopened.append(Unopened(source: configuration.name, problem: error.problem))
        source = DeferredOpenFactSource(
          name: configuration.name, problem: error.problem, open: opener)
      }
      layers.append(
        LayeredFactSource.Layer(
          source, timeout: .milliseconds(Int64((configuration.timeoutSeconds * 1_000).rounded()))))
    }
    self.schema = schema
    self.layers = layers
    self.unopened = unopened
    var usageEvents: [UsageEventLayer] = []
    for configuration in configurations where configuration.type == "sqlite" {
      guard let sql = try configuration.settings.optionalString("usageEventsQuery") else {
        continue
      }
      let settings = configuration.settings
      let path = configuration.resolvePath(try settings.string("path"))
      let busy = Int32(
        min(try settings.positiveWholeNumber("busyTimeoutMs", default: 1_000), Int(Int32.max)))
      let open: @Sendable () throws(SQLiteFactSourceError) -> SQLiteUsageEventSource = {
        () throws(SQLiteFactSourceError) in
        try SQLiteUsageEventSource(
          name: configuration.name, path: path, sql: sql, busyTimeoutMs: busy)
      }
      let source: any UsageEventSource
      do throws(SQLiteFactSourceError) { source = try open() } catch {
        guard case .openLater = unavailable, error.isUnavailable else {
          throw ConfigurationError(
            settings.keyPath(error.isUnavailable ? "path" : "usageEventsQuery"), error.description)
        }
        source = OpenedLater(name: configuration.name, open: open)
      }
      usageEvents.append(
        UsageEventLayer(
          source: source,
          timeout: .milliseconds(Int64((configuration.timeoutSeconds * 1_000).rounded()))))
    }
    self.usageEvents = usageEvents
  }

  /// A usage-event source whose file could not be opened at start-up: opened at a lookup.
  private final class OpenedLater: UsageEventSource, @unchecked Sendable {
    let name: String
    private let open: @Sendable () throws(SQLiteFactSourceError) -> SQLiteUsageEventSource
    private let lock = NSLock()
    private var opened: SQLiteUsageEventSource?

    init(
      name: String,
      open: @escaping @Sendable () throws(SQLiteFactSourceError) -> SQLiteUsageEventSource
    ) {
      self.name = name
      self.open = open
    }

    func usageEvents(for keys: RequestKeys) async throws -> [UsageEvent] {
      let source = try lock.withLock { () throws -> SQLiteUsageEventSource in
        if let opened { return opened }
        let fresh = try open()
        opened = fresh
        return fresh
      }
      return try await source.usageEvents(for: keys)
    }
  }

  /// Reckon's standard facts plus every source's `customFacts`, read from the configuration
  /// alone: no source is opened, so a policy checks before its facts database exists.
  public static func schema(
    _ configurations: [FactSourceConfiguration], currencies: CurrencyRates = .none
  )
    throws(ConfigurationError) -> FactSchema
  {
    var custom: [FactDescriptor] = []
    for configuration in configurations {
      // A misspelt key is as wrong for `reckon check --config` as for serve.
      try checkKeys(configuration)
      for fact in try FactSourceSetup.customFacts(configuration) {
        if let other = custom.first(where: { $0.name == fact.name }) {
          guard other.type == fact.type else {
            throw ConfigurationError(
              configuration.settings.keyPath("customFacts.\(fact.name)"),
              CustomFactError.conflictingTypes(name: fact.name).description)
          }
          continue
        }
        custom.append(fact)
      }
    }
    return FactSchema(customFacts: custom, currencyRates: currencies)
  }

  /// A gatherer over these sources; `extra` layers (e.g. a `--facts` file) come first.
  public func gatherer(
    records: (any RecordsFactProvider)? = nil, before extra: [LayeredFactSource.Layer] = []
  ) -> FactGatherer {
    FactGatherer(schema: schema, layers: extra + layers, records: records)
  }

  private static func customFacts(_ configuration: FactSourceConfiguration)
    throws(ConfigurationError) -> [FactDescriptor]
  {
    guard let declared = try configuration.settings.object("customFacts") else { return [] }
    var facts: [FactDescriptor] = []
    for name in declared.members.keys.sorted() {
      let key = declared.keyPath(name)
      guard case .string(let type)? = declared.members[name] else {
        throw ConfigurationError(key, "must be a type name such as \"boolean\"")
      }
      do {
        facts.append(
          try FactSchema.customFact(named: name, type: type, declaredBy: configuration.name))
      } catch {
        throw ConfigurationError(key, error.description)
      }
    }
    return facts
  }

  /// Why a source could not be opened: the problem under its key, and whether it may pass.
  struct OpenFailure: Error {
    let problem: ConfigurationError
    let isUnavailable: Bool
  }

  /// Refuses a key the source's type does not take, with a suggestion.
  private static func checkKeys(_ configuration: FactSourceConfiguration)
    throws(ConfigurationError)
  {
    let common = ["name", "type", "timeoutMs", "path", "customFacts"]
    let sqlite = ["busyTimeoutMs", "queries", "bulkQuery", "usageEventsQuery"]
    try configuration.settings.rejectUnknownKeys(
      configuration.type == "json" ? common : common + sqlite)
  }

  /// Opens one configured source.
  typealias Opener = @Sendable () throws(OpenFailure) -> any FactSource

  /// Checks what the configuration alone says about a source (throwing at once), and returns
  /// what opens it, which may fail now and succeed later.
  private static func opener(
    _ configuration: FactSourceConfiguration, schema: FactSchema,
    events: (@Sendable (ReckonEvent) -> Void)?, warn: (@Sendable (String) -> Void)?
  ) throws(ConfigurationError) -> Opener {
    let settings = configuration.settings
    try checkKeys(configuration)
    let path = configuration.resolvePath(try settings.string("path"))
    let name = configuration.name
    if configuration.type == "json" {
      // A server logs JSON lines: a plain-text line on stderr would break its log pipeline.
      var report: @Sendable (JSONFileFactSourceError) -> Void = { error in
        warn?(JSONFileFactSource.reloadProblem(error))
      }
      if let events {
        report = { error in
          events(.factsReloadRefused(source: name, path: path, problem: error.description))
        }
      }
      return { [report] () throws(OpenFailure) in
        do throws(JSONFileFactSourceError) {
          return try JSONFileFactSource(
            name: name, path: path, schema: schema, limit: configuration.fileLimit, report: report)
        } catch {
          throw OpenFailure(
            problem: ConfigurationError(settings.keyPath("path"), error.description),
            isUnavailable: error.isUnavailable)
        }
      }
    }
    let busy = try settings.positiveWholeNumber("busyTimeoutMs", default: 1_000)
    let queries = try sqlQueries(settings)
    // Read by dry-runs only, but text or nothing in every command.
    _ = try settings.optionalString("bulkQuery")
    let sqlite = SQLiteFactSource.Settings(
      path: path, queries: queries, busyTimeoutMs: Int32(min(busy, Int(Int32.max))),
      lookupTimeoutMs: Int32(min(configuration.timeoutSeconds * 1_000, Double(Int32.max))))
    return { () throws(OpenFailure) in
      do throws(SQLiteFactSourceError) {
        return try SQLiteFactSource(name: name, settings: sqlite, schema: schema)
      } catch {
        let key =
          error.query.map { settings.keyPath("queries.\($0)") }
          ?? settings.keyPath(error == .noQueries ? "queries" : "path")
        throw OpenFailure(
          problem: ConfigurationError(key, error.description), isUnavailable: error.isUnavailable)
      }
    }
  }

  private static func sqlQueries(_ settings: ConfigurationReader) throws(ConfigurationError)
    -> [String: String]
  {
    guard let object = try settings.object("queries"), !object.members.isEmpty else {
      throw ConfigurationError(
        settings.keyPath("queries"), "is required: an object of query names and SQL")
    }
    var queries: [String: String] = [:]
    for name in object.members.keys.sorted() { queries[name] = try object.string(name) }
    return queries
  }
}
