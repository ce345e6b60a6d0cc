import Foundation
import ReckonSupport

/// Google's OpenID signing keys as the push verifier needs them: fixed by configuration, read
/// from a keys file (re-read when it changes), or fetched from Google's JWKS endpoint and kept
/// in a keys file, refreshed when the endpoint's `Cache-Control` lapses and when a token names a
/// key not yet known (Google rotates its keys every few weeks), at most once a minute.
public actor GoogleSigningKeys {
  /// Where the keys come from.
  public enum Source: Sendable {
    /// These keys and no others.
    case fixed(JSONWebKeySet)
    /// The JWKS file at this path, re-read when it changes.
    case file(String)
    /// Fetched from `url` through `transport`; kept in `cacheFile` when one is given, so a
    /// restart without the network still verifies.
    case fetched(url: URL, transport: any HTTPTransport, cacheFile: String?)
  }

  /// Google's endpoint for the keys of its OpenID tokens.
  public static let googleCertificatesURL = URL(
    string: "https://www.googleapis.com/oauth2/v3/certs")!

  private let source: Source
  private var current: JSONWebKeySet?
  private var stamp: FileStamp?
  private var freshUntil: Date = .distantPast
  private var lastFetch: Date = .distantPast
  /// Why the last load or fetch failed, for `/healthz` and `reckon doctor`.
  public private(set) var lastProblem: String?

  /// How many keys are held now.
  public var count: Int { current?.keys.count ?? 0 }

  /// Keys from `source`.
  public init(_ source: Source) {
    self.source = source
    if case .fixed(let set) = source { current = set }
  }

  /// The key with id `kid` at `now`, reloading or fetching first when the keys are stale or do
  /// not have it.
  public func key(_ kid: String, now: Date) async -> RSAPublicKey? {
    switch source {
    case .fixed(let set): return set.keys[kid]
    case .file(let path):
      reloadFile(path)
      return current?.keys[kid]
    case .fetched(let url, let transport, let cacheFile):
      if current == nil, let cacheFile { reloadFile(cacheFile) }
      let stale = now >= freshUntil
      let unknown = current?.keys[kid] == nil
      if stale || (unknown && now.timeIntervalSince(lastFetch) >= 60) {
        await fetch(url: url, transport: transport, cacheFile: cacheFile, now: now)
      }
      return current?.keys[kid]
    }
  }

  /// Fetches the keys now whatever their age (for start-up and `reckon doctor`); true when it
  /// worked.
  @discardableResult
  public func refresh(now: Date) async -> Bool {
    switch source {
    case .fixed: return true
    case .file(let path):
      stamp = nil
      reloadFile(path)
      return lastProblem == nil
    case .fetched(let url, let transport, let cacheFile):
      await fetch(url: url, transport: transport, cacheFile: cacheFile, now: now)
      return lastProblem == nil
    }
  }

  private func reloadFile(_ path: String) {
    let latest = FileStamp(path)
    guard latest != stamp else { return }
    stamp = latest
    do {
      current = try JSONWebKeySet(json: try LocalFile.data(at: path))
      lastProblem = nil
    } catch {
      lastProblem = "the keys file \(path): \(error)"
    }
  }

  private func fetch(url: URL, transport: any HTTPTransport, cacheFile: String?, now: Date) async {
    lastFetch = now
    let response: HTTPClientResponse
    do {
      response = try await transport.perform(
        HTTPClientRequest(method: "GET", url: url, deadline: now.addingTimeInterval(10)))
    } catch {
      lastProblem = "fetching \(url.absoluteString): \(error.description)"
      // Keep the keys held; try again in a minute rather than on every push.
      freshUntil = now.addingTimeInterval(60)
      return
    }
    guard response.status == 200 else {
      lastProblem = "fetching \(url.absoluteString): HTTP \(response.status)"
      freshUntil = now.addingTimeInterval(60)
      return
    }
    do {
      current = try JSONWebKeySet(json: response.body)
    } catch {
      lastProblem = "fetching \(url.absoluteString): \(error.description)"
      freshUntil = now.addingTimeInterval(60)
      return
    }
    lastProblem = nil
    freshUntil = now.addingTimeInterval(Self.maxAge(response.header("Cache-Control")) ?? 3_600)
    if let cacheFile {
      do throws(LocalFileError) {
        if FileStamp(cacheFile).exists {
          try LocalFile.replaceContents(at: cacheFile, with: response.body)
        } else {
          try LocalFile.createPrivate(at: cacheFile, with: response.body)
        }
        stamp = FileStamp(cacheFile)
      } catch {
        // The keys fetched still verify; only a restart without the network would miss them.
        lastProblem = "keeping Google's keys in \(cacheFile): \(error.reason)"
      }
    }
  }

  /// The `max-age` of a `Cache-Control` value, in seconds.
  static func maxAge(_ header: String?) -> TimeInterval? {
    guard let header else { return nil }
    for directive in header.split(separator: ",") {
      let parts = directive.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "max-age",
        let seconds = Int(parts[1].trimmingCharacters(in: .whitespaces)), seconds >= 0
      else { continue }
      return TimeInterval(seconds)
    }
    return nil
  }
}
