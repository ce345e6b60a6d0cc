import Foundation
import ReckonStatePostgres

#if canImport(Glibc)
  import Glibc
#endif

/// A PostgreSQL server for the tests of the shared state backend: Debian's `postgresql`
/// (`scripts/install-packages` installs it), started once per test process on a free loopback
/// port in a temporary data folder, with each store in a database of its own. PostgreSQL
/// refuses to run as root, so under root it runs as the `postgres` user the package creates.
/// The server stops and its folder goes when the test process ends, however it ends: a shell
/// beside it waits on a pipe only this process holds open.
///
/// `RECKON_TEST_POSTGRES_URL` (an address whose user may create databases) uses a server of
/// one's own instead. When PostgreSQL is not installed the tests that need it are skipped with
/// a warning, except under CI (`CI` set), where that is a failure; a server that is installed
/// but does not start is always a failure.
public enum TestPostgres {
  /// Whether the PostgreSQL tests run: a server was given, or one can be started here.
  public static var isAvailable: Bool {
    if case .notInstalled = plan { return false }
    return true
  }

  /// Why the PostgreSQL tests are skipped, when they are.
  public static var skipReason: String? {
    if case .notInstalled(let reason) = plan { return reason }
    return nil
  }

  /// The address of a new, empty database on the test server, starting the server first if
  /// need be.
  public static func freshDatabase() throws -> String {
    let admin = try server.get()
    let name = "reckon_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try PostgresAddress(url: admin + "/postgres").administer("CREATE DATABASE \(name)")
    return admin + "/" + name
  }

  /// The server's address without a database (`postgres://user@host:port`).
  public static func serverAddress() throws -> String { try server.get() }

  private enum Plan {
    case given(String)
    case start(binaries: URL)
    case notInstalled(String)
  }

  private static let plan: Plan = {
    let environment = ProcessInfo.processInfo.environment
    if let url = environment["RECKON_TEST_POSTGRES_URL"], !url.isEmpty {
      return .given(url.hasSuffix("/") ? String(url.dropLast()) : url)
    }
    let candidates =
      ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
      .sorted { $0.compare($1, options: .numeric) == .orderedDescending }
      .map { URL(fileURLWithPath: "/usr/lib/postgresql/\($0)/bin") }
    if let binaries = candidates.first(where: {
      FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path)
    }) {
      return .start(binaries: binaries)
    }
    let reason =
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): scripts/install-packages installs it, or set RECKON_TEST_POSTGRES_URL"
    if environment["CI"] != nil { return .start(binaries: URL(fileURLWithPath: "/nonexistent")) }
    FileHandle.standardError.write(
      Data("\n*** SKIPPING the PostgreSQL state tests: \(reason) ***\n\n".utf8))
    return .notInstalled(reason)
  }()

  private static let server: Result<String, any Error> = Result {
    switch plan {
    case .given(let url): return url
    case .notInstalled(let reason): throw TestPostgresError(reason: reason)
    case .start(let binaries): return try start(binaries)
    }
  }

  /// The pipe whose write end keeps the server's shell waiting; closed only by this process's
  /// exit.
  nonisolated(unsafe) private static var lifeline: Pipe?

  private static func start(_ binaries: URL) throws -> String {
    guard
      FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent("initdb").path)
    else {
      throw TestPostgresError(
        reason: "PostgreSQL is not installed, and CI needs it: scripts/install-packages installs it"
      )
    }
    let folder = URL(fileURLWithPath: "/tmp/reckon-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var prefix: [String] = []
    if getuid() == 0 {
      guard let user = getpwnam("postgres") else {
        throw TestPostgresError(
          reason: "running as root, and there is no postgres user to run PostgreSQL as")
      }
      guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
        throw TestPostgresError(reason: "cannot give \(folder.path) to the postgres user")
      }
      prefix = ["/usr/sbin/runuser", "-u", "postgres", "--"]
    }
    let data = folder.appendingPathComponent("data").path
    let initdb = binaries.appendingPathComponent("initdb").path
    let (status, output) = try runToEnd(
      prefix + [initdb, "-D", data, "-A", "trust", "-U", "reckon", "-E", "UTF8", "--no-sync"])
    guard status == 0 else {
      throw TestPostgresError(reason: "initdb failed (\(status)): \(output)")
    }
    let port = try freeLoopbackPort()
    let pgCtl = binaries.appendingPathComponent("pg_ctl").path
    let options =
      "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off "
      + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
    // pg_ctl starts the server as a daemon and stops it by its pid file, so nothing here waits
    // on the server as a child.
    let script = """
      '\(pgCtl)' -D '\(data)' -l '\(folder.path)/server.log' -o '\(options)' -w -t 30 start \
        > /dev/null 2>&1
      read ignored
      '\(pgCtl)' -D '\(data)' -m fast -w -t 30 stop > /dev/null 2>&1
      rm -rf '\(folder.path)'
      """
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: prefix.first ?? "/bin/sh")
    process.arguments =
      Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : ["/bin/sh"]) + ["-c", script]
    let pipe = Pipe()
    process.standardInput = pipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    lifeline = pipe
    let address = "postgres://reckon@127.0.0.1:\(port)"
    let deadline = Date().addingTimeInterval(30)
    var lastError = "not tried"
    while Date() < deadline {
      do {
        try PostgresAddress(url: address + "/postgres").administer("SELECT 1")
        return address
      } catch {
        lastError = "\(error)"
        Thread.sleep(forTimeInterval: 0.1)
      }
    }
    let log = (try? String(contentsOfFile: folder.path + "/server.log", encoding: .utf8)) ?? ""
    throw TestPostgresError(
      reason: "the test server did not accept connections within 30 s: \(lastError); log: \(log)")
  }

  private static func runToEnd(_ arguments: [String]) throws -> (Int32, String) {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  /// A loopback port nothing listens on now, as the kernel picks one.
  private static func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestPostgresError(reason: "no socket for a free port") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else { throw TestPostgresError(reason: "cannot find a free loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// Why the PostgreSQL test server is not there.
public struct TestPostgresError: Error, CustomStringConvertible {
  /// What went wrong.
  public let reason: String
  public var description: String { "PostgreSQL test server: \(reason)" }
}
