import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// The fact sources a configuration describes, opened and checked: the schema with every declared
/// custom fact, and the sources as layers in configured order. A query typo, an unknown fact or a
/// bad facts file is a `ConfigurationError` naming the key, at start-up.
public struct FactSourceSetup: Sendable {
  /// Reckon's standard facts plus every source's `customFacts`.
  public let schema: FactSchema
  /// The sources with their timeouts, highest precedence first.
  public let layers: [LayeredFactSource.Layer]

  /// Opens and checks every configured source. A JSON facts file that changes and no longer
  /// reads is reported to `events` as `factsReloadRefused` when given, else on standard error.
  public init(
    _ configurations: [FactSourceConfiguration],
    events: (@Sendable (ReckonEvent) -> Void)? = nil
  ) throws(ConfigurationError) {
    let schema = try FactSourceSetup.schema(configurations)
    var layers: [LayeredFactSource.Layer] = []
    for configuration in configurations {
      let source = try FactSourceSetup.open(configuration, schema: schema, events: events)
      layers.append(
        LayeredFactSource.Layer(
          source, timeout: .milliseconds(Int64((configuration.timeoutSeconds * 1_000).rounded()))))
    }
    self.schema = schema
    self.layers = layers
  }

  /// Reckon's standard facts plus every source's `customFacts`, read from the configuration
  /// alone: no source is opened, so a policy checks before its facts database exists.
  public static func schema(_ configurations: [FactSourceConfiguration])
    throws(ConfigurationError) -> FactSchema
  {
    var custom: [FactDescriptor] = []
    for configuration in configurations {
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
    return FactSchema(customFacts: custom)
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

  private static func open(
    _ configuration: FactSourceConfiguration, schema: FactSchema,
    events: (@Sendable (ReckonEvent) -> Void)?
  ) throws(ConfigurationError) -> any FactSource {
    let settings = configuration.settings
    let common = ["name", "type", "timeoutMs", "path", "customFacts"]
    let path = configuration.resolvePath(try settings.string("path"))
    if configuration.type == "json" {
      try settings.rejectUnknownKeys(common)
      // A server logs JSON lines: a plain-text line on stderr would break its log pipeline.
      let name = configuration.name
      var report = JSONFileFactSource.reportToStandardError
      if let events {
        report = { error in
          events(.factsReloadRefused(source: name, path: path, problem: error.description))
        }
      }
      do {
        return try JSONFileFactSource(name: name, path: path, schema: schema, report: report)
      } catch {
        throw ConfigurationError(settings.keyPath("path"), error.description)
      }
    }
    try settings.rejectUnknownKeys(common + ["busyTimeoutMs", "queries", "bulkQuery"])
    let busy = try settings.positiveWholeNumber("busyTimeoutMs", default: 1_000)
    let queries = try sqlQueries(settings)
    do {
      let sqlite = SQLiteFactSource.Settings(
        path: path, queries: queries, busyTimeoutMs: Int32(min(busy, Int(Int32.max))))
      return try SQLiteFactSource(name: configuration.name, settings: sqlite, schema: schema)
    } catch {
      let key =
        error.query.map { settings.keyPath("queries.\($0)") }
        ?? settings.keyPath(error == .noQueries ? "queries" : "path")
      throw ConfigurationError(key, error.description)
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
