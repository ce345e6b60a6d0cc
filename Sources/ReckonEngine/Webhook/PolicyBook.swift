import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy
import ReckonState
import ReckonSupport

/// The live policy of every app, loaded and checked at start, replaced only by a version that
/// checks: a changed file that fails `check` is refused and the previous version stays live.
public final class PolicyBook: @unchecked Sendable {
  /// Where an app's policy comes from.
  public enum Source: Hashable, Sendable {
    /// A policy file, re-read on `reload()` when it changed.
    case file(String)
    /// Policy text held in memory, named `name` in diagnostics.
    case text(name: String, String)

    var name: String {
      switch self {
      case .file(let path): path
      case .text(let name, _): name
      }
    }
  }

  /// One app's live policy.
  public struct Entry: Sendable {
    /// Where it came from.
    public let source: Source
    /// The compiled policy.
    public let policy: CompiledPolicy
    /// The exact text it was compiled from (its SHA-256 is stored with each decision).
    public let text: String
    /// SHA-256 of `text` as hex, computed once rather than for every decision.
    public let textSHA256: String
    /// The facts a decision by `policy` reads, found once rather than by walking its rules for
    /// every request.
    public let reads: Set<String>
    /// `check`'s warnings about it, each rendered as `reckon check` prints it.
    public let warnings: [String]
    /// The file's stamp when it was read, for change detection; nil for text.
    let modified: FileStamp?
  }

  /// A policy that does not check, with its rendered diagnostics.
  public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or name.
    public let source: String
    /// The diagnostics as `reckon check` prints them.
    public let diagnostics: String
    /// Whether the file could not be read at all (missing, too large, not a regular file), so
    /// there was nothing to check.
    public var cannotBeRead = false

    /// The source and the diagnostics.
    public var description: String {
      cannotBeRead ? "\(source): \(diagnostics)" : "\(source) does not check:\n\(diagnostics)"
    }

    /// The line that names the first error and where it is (the first line when none does).
    public var firstLine: String {
      let lines = diagnostics.split(whereSeparator: \.isNewline)
      let line =
        lines.first { $0.contains(": error[") || $0.contains(": error: ") } ?? lines.first ?? ""
      return QuotedText.cut(String(line), to: 300)
    }
  }

  /// A policy file whose version on disk was refused, while an earlier version decides.
  public struct RefusedFile: Hashable, Sendable {
    /// The file.
    public let path: String
    /// The first line of why it was refused, as `reckon check` prints it.
    public let problem: String
    /// When it was first refused since its last version that checked.
    public let since: Date
  }

  /// The schema App Store policies are checked against.
  public let schema: FactSchema
  /// The schema Google Play policies are checked against: the same custom facts and rates.
  public let googlePlaySchema: FactSchema
  /// The largest policy file read.
  public let fileLimit: FileSizeLimit
  private let lock = NSLock()
  private var entries: [AppKey: Entry]
  /// Each file refused now: the stamp of its refused version (or of its absence), so it is
  /// reported once, and why, for `/healthz` and `/metrics`.
  private var refused: [String: Refused] = [:]
  /// Where each app's version that went live is kept, for a restart to start with.
  private let archive: (any PolicyArchive)?
  /// The apps that started with their kept version because their file did not check, with
  /// why and that version, until the file checks.
  private var fallbacks: [AppKey: Fallback] = [:]

  /// A file's refused version and why it was refused.
  private struct Refused {
    let stamp: FileStamp
    let file: RefusedFile
  }

  /// Why an app started with its kept version, and that version.
  private struct Fallback {
    let refusal: Refusal
    let kept: ArchivedPolicy
  }

  /// Loads and checks the policy of every app, reading no file larger than `fileLimit`, and
  /// keeps each in `archive`. An app whose file does not check starts with the version `archive`
  /// kept when it last went live from that file (reported by `live()` and `refusedFiles()` until
  /// the file is fixed); without one, the first such file fails the whole load, as a file that
  /// cannot be read always does.
  public convenience init(
    _ sources: [AppStoreApp: Source], schema: FactSchema, fileLimit: FileSizeLimit = .policy,
    archive: (any PolicyArchive)? = nil
  ) throws(Refusal) {
    try self.init(
      apps: Dictionary(uniqueKeysWithValues: sources.map { ($0.key.key, $0.value) }),
      schema: schema, fileLimit: fileLimit, archive: archive)
  }

  /// Loads and checks the policy of every app of either store, as `init(_:schema:...)` does: a
  /// Google Play app's (environment `GooglePlay`) against Google Play's schema with `schema`'s
  /// custom facts and rates.
  public init(
    apps sources: [AppKey: Source], schema: FactSchema, fileLimit: FileSizeLimit = .policy,
    archive: (any PolicyArchive)? = nil
  ) throws(Refusal) {
    self.schema = schema
    self.googlePlaySchema = schema.schema(for: .googlePlay)
    self.fileLimit = fileLimit
    self.archive = archive
    var entries: [AppKey: Entry] = [:]
    for (app, source) in sources.sorted(by: { $0.key.description < $1.key.description }) {
      let schema = app.environment == GooglePlayStore.environment ? googlePlaySchema : schema
      do throws(Refusal) {
        entries[app] = try Self.load(source, schema: schema, fileLimit: fileLimit)
      } catch {
        // A file that cannot be read at start is a deployment mistake, not an edit: the start
        // fails on it, as reckon.json's init does, rather than fall back. Nor is another
        // file's version a fallback: instances sharing a state keep one version per app, and
        // one configured with another policy would decide by that policy.
        guard case .file(let path) = source, !error.cannotBeRead,
          let kept = try? archive?.lastLivePolicy(app: app), kept.source == path,
          let entry = try? Self.compile(
            source, SourceFile(path: path, text: kept.text), modified: nil, schema: schema)
        else { throw error }
        entries[app] = entry
        fallbacks[app] = Fallback(refusal: error, kept: kept)
        refused[path] = Refused(
          stamp: FileStamp(path),
          file: RefusedFile(path: path, problem: error.firstLine, since: Date()))
      }
    }
    self.entries = entries
    for (app, entry) in entries where fallbacks[app] == nil { keep(entry, for: app) }
  }

  /// The live policy for `app`.
  public func entry(for app: AppStoreApp) -> Entry? {
    entry(for: app.key)
  }

  /// The live policy for the app of either store keyed `app`.
  public func entry(for app: AppKey) -> Entry? {
    lock.withLock { entries[app] }
  }

  /// The schema the policy of `app` is checked against.
  public func schema(for app: AppKey) -> FactSchema {
    app.environment == GooglePlayStore.environment ? googlePlaySchema : schema
  }

  /// The files whose version on disk is refused now, by path: until each is fixed, an earlier
  /// version of it decides.
  public func refusedFiles() -> [RefusedFile] {
    lock.withLock { refused.values.map(\.file).sorted { $0.path < $1.path } }
  }

  /// Whether each policy file's version on disk is refused now, by path.
  public func filesRefused() -> [String: Bool] {
    lock.withLock {
      var standing: [String: Bool] = [:]
      for entry in entries.values {
        if case .file(let path) = entry.source { standing[path] = refused[path] != nil }
      }
      return standing
    }
  }

  /// Every app's live policy, by app, for the log at start-up: a kept version started with
  /// because the file did not check is a `policyFallback`.
  public func live() -> [ReckonEvent] {
    let (current, started) = lock.withLock {
      () -> ([AppKey: Entry], [AppKey: Fallback]) in (entries, fallbacks)
    }
    return current.sorted { $0.key.description < $1.key.description }.map {
      (app: AppKey, entry: Entry) -> ReckonEvent in
      let live = LivePolicy(entry, app: app)
      guard let fallback = started[app] else { return .policyLive(live) }
      return .policyFallback(
        live, diagnostics: fallback.refusal.diagnostics, wentLiveAt: fallback.kept.wentLiveAt)
    }
  }

  /// Re-reads every policy file that changed (its identity, size or modification time, through
  /// symbolic links), or all of them with `force`; applies those that check, refuses the others
  /// (a removed file too) and keeps their previous version live.
  public func reload(force: Bool = false) -> [ReckonEvent] {
    let (current, refusedVersions) = lock.withLock {
      () -> ([AppKey: Entry], [String: FileStamp]) in (entries, refused.mapValues(\.stamp))
    }
    var events: [ReckonEvent] = []
    var loadedByPath: [String: Result<Entry, Refusal>] = [:]
    for (app, entry) in current.sorted(by: { $0.key.description < $1.key.description }) {
      guard case .file(let path) = entry.source else { continue }
      let modified = FileStamp(path)
      guard force || (modified != entry.modified && modified != refusedVersions[path]) else {
        continue
      }
      let result =
        loadedByPath[path]
        ?? Result { () throws(Refusal) in
          try Self.load(entry.source, schema: self.schema(for: app), fileLimit: fileLimit)
        }
      if loadedByPath[path] == nil {
        loadedByPath[path] = result
        if case .failure(let refusal) = result {
          events.append(.policyRefused(path: path, diagnostics: refusal.diagnostics))
          lock.withLock {
            refused[path] = Refused(
              stamp: modified,
              file: RefusedFile(
                path: path, problem: refusal.firstLine, since: refused[path]?.file.since ?? Date()))
          }
        }
      }
      guard case .success(let fresh) = result else { continue }
      // A refused edit taken back (the file restored as it was) is said too: the log's last
      // word on the file would otherwise stay "refused" while the live version decides.
      let restored = refusedVersions[path] != nil
      let fellBack = lock.withLock {
        entries[app] = fresh
        refused[path] = nil
        return fallbacks.removeValue(forKey: app) != nil
      }
      if fresh.text != entry.text || restored || fellBack {
        events.append(.policyApplied(LivePolicy(fresh, app: app)))
        keep(fresh, for: app)
      }
    }
    return events
  }

  /// Keeps `entry` as `app`'s version that went live. A state that cannot be written now
  /// keeps the version before, which a restart then starts with if the file does not check.
  private func keep(_ entry: Entry, for app: AppKey) {
    try? archive?.archiveLivePolicy(
      ArchivedPolicy(
        app: app, source: entry.source.name, text: entry.text, textSHA256: entry.textSHA256,
        wentLiveAt: Date()))
  }

  private static func load(_ source: Source, schema: FactSchema, fileLimit: FileSizeLimit)
    throws(Refusal) -> Entry
  {
    let file: SourceFile
    var modified: FileStamp?
    switch source {
    case .file(let path):
      modified = FileStamp(path)
      do { file = try PolicyFiles.read(path, limit: fileLimit) } catch {
        guard case .unreadable(_, let reason) = error else {
          throw Refusal(source: path, diagnostics: error.description)
        }
        throw Refusal(source: path, diagnostics: "cannot read: \(reason)", cannotBeRead: true)
      }
    case .text(let name, let body): file = SourceFile(path: name, text: body)
    }
    return try compile(source, file, modified: modified, schema: schema)
  }

  /// `file`'s text loaded as `source`'s policy, as it must be to go live.
  private static func compile(
    _ source: Source, _ file: SourceFile, modified: FileStamp?, schema: FactSchema
  ) throws(Refusal) -> Entry {
    let text = file.text
    var loaded = PolicyLoader.load(file, schema: schema.policySchema)
    // Which answers Apple's rules refuse for any purchase is Apple's alone to say.
    if schema.store == .appStore { loaded = loaded.withAnswerCoverage(schema: schema) }
    guard let policy = loaded.policy else {
      throw Refusal(source: source.name, diagnostics: loaded.renderedDiagnostics())
    }
    let formatter = DiagnosticFormatter()
    return Entry(
      source: source, policy: policy, text: text, textSHA256: SHA256Digest.hex(Data(text.utf8)),
      reads: FactGathering.factsRead(by: policy),
      warnings: loaded.diagnostics.map { formatter.render($0, in: loaded.source) },
      modified: modified)
  }
}
