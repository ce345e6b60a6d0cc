import CLibPQ
import Foundation
import ReckonState
import ReckonSupport

/// Where the PostgreSQL state lives: a `postgres://user@host:port/database?sslmode=…` URL,
/// whose every parameter libpq honours, and the password kept apart from it. A password is
/// never part of the URL (which configurations, logs and `/healthz` show): libpq reads
/// `PGPASSWORD` or its password file (`PGPASSFILE`, `~/.pgpass`), or Reckon reads the file
/// `state.passwordFile` names.
public struct PostgresAddress: Sendable, Hashable, CustomStringConvertible {
  /// The URL as configured.
  public let url: String
  /// The password read from a file, if one was named.
  let password: String?

  /// Whether `location` names a PostgreSQL database rather than a file.
  public static func isAddress(_ location: String) -> Bool {
    location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
  }

  /// Checks `url` with libpq's own parser; refuses one that is not a PostgreSQL URL, that libpq
  /// cannot parse, or that holds a password. With `passwordFile`, the password is its first line.
  public init(url: String, passwordFile: String? = nil) throws(StateError) {
    guard Self.isAddress(url) else {
      throw .cannotOpen(
        path: url, message: "a PostgreSQL state's address starts with postgres:// or postgresql://")
    }
    var parseError: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(url, &parseError) else {
      let reason = parseError.map { String(cString: $0) } ?? "libpq cannot parse it"
      parseError.map { PQfreemem($0) }
      throw .cannotOpen(
        path: Self.redacted(url),
        message: reason.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    defer { PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == "password", option.pointee.val != nil {
        throw .cannotOpen(
          path: Self.redacted(url),
          message:
            "the address holds a password, which would show wherever the address does: set PGPASSWORD, or name a file holding it (state.passwordFile in reckon.json, --password-file on the command line)"
        )
      }
      option += 1
    }
    self.url = url
    if let passwordFile {
      // Any user could read the password: refused, as Reckon refuses such a key file.
      if let mode = LocalFile.permissions(at: passwordFile), mode & 0o004 != 0 {
        throw .cannotOpen(
          path: url,
          message: "the password file \(passwordFile) can be read by any user (mode "
            + String(mode & 0o777, radix: 8) + "): run chmod 600 on it")
      }
      let text: String
      do throws(LocalFileError) {
        text = try LocalFile.text(at: passwordFile, limit: .secret)
      } catch {
        throw .cannotOpen(
          path: url, message: "cannot read the password file \(passwordFile): \(error.reason)")
      }
      // The first line, whatever ends it: an editor's CR LF is no part of the password.
      let first =
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        .first.map(String.init) ?? ""
      guard !first.isEmpty else {
        throw .cannotOpen(
          path: url,
          message: "the password file \(passwordFile) is empty: its first line is the password")
      }
      password = first
    } else {
      password = nil
    }
  }

  /// The URL, which never holds a password.
  public var description: String { url }

  /// Opens a libpq connection (possibly failed: check its status); nil when libpq cannot
  /// allocate one.
  func connect() -> OpaquePointer? {
    // Before `dbname`, so the URL's own options override them: a server or network gone
    // silent fails a statement within seconds instead of the kernel's two hours.
    let liveness = Self.livenessOptions
    var keywords = liveness.map(\.0) + ["dbname", "fallback_application_name"]
    var values = liveness.map(\.1) + [url, "reckon"]
    if let password {
      keywords.append("password")
      values.append(password)
    }
    return withCStrings(keywords) { keywordPointers in
      withCStrings(values) { valuePointers in
        PQconnectdbParams(keywordPointers, valuePointers, 1)
      }
    }
  }

  /// The connection options that notice a dead peer, unless the URL sets its own; and a
  /// statement waiting 20 s for a lock (a `VACUUM FULL`, a `LOCK TABLE` left open) fails
  /// rather than hold the webhook's answer for as long as the lock is held.
  static let livenessOptions = [
    ("connect_timeout", "10"), ("keepalives_idle", "10"), ("keepalives_interval", "5"),
    ("keepalives_count", "3"), ("tcp_user_timeout", "20000"),
    ("options", "-c lock_timeout=20000"),
  ]

  /// `url` with its password, in the user part or the query (by any spelling of the name,
  /// `PASSWORD` too, which libpq refuses as unknown), replaced, for a message about a URL that
  /// was refused.
  static func redacted(_ url: String) -> String {
    let hidden = "REDACTED"
    guard var parts = URLComponents(string: url) else { return "the configured address" }
    if parts.password != nil { parts.password = hidden }
    parts.queryItems = parts.queryItems?.map {
      $0.name.lowercased().contains("pass") ? URLQueryItem(name: $0.name, value: hidden) : $0
    }
    return parts.string ?? "the configured address"
  }
}

/// Calls `body` with a NULL-terminated array of C strings, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
  let copies = strings.map { strdup($0) }
  defer { for copy in copies { free(copy) } }
  return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
}

extension PostgresAddress {
  /// Runs `sql` on a connection of its own, for setting up a server (tests creating a database
  /// each): statements no store runs, such as `CREATE DATABASE`.
  package func administer(_ sql: String) throws(StateError) {
    try PostgresConnection(address: self).execute(sql)
  }
}
