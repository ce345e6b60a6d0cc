import CSpawn
import Foundation

/// A program run as a child with `posix_spawn`, for the tests and benchmarks that start one.
///
/// Foundation's `Process` on Linux is not used: waiting for it from two threads at once races on
/// its run-loop fields, and spawning reads past the end of `/proc/self/fd` entries; either can
/// crash the whole test run. Here a thread of its own reaps the child, so any number of threads
/// may wait.
public final class ChildProcess: @unchecked Sendable {
  /// How a child ended.
  public enum TerminationReason: Sendable, Equatable {
    /// It called exit; `terminationStatus` is its exit code.
    case exit
    /// A signal ended it; `terminationStatus` is the signal's number.
    case uncaughtSignal
  }

  /// Why a child could not be started.
  public enum LaunchError: Error, Equatable, CustomStringConvertible {
    /// `run()` was called without an executable.
    case noExecutable
    /// `run()` was called a second time.
    case alreadyStarted
    /// A `posix_spawn` call failed with this `errno`.
    case spawn(path: String, step: String, errno: Int32)

    public var description: String {
      switch self {
      case .noExecutable: "no executable was set"
      case .alreadyStarted: "the child was already started"
      case .spawn(let path, let step, let code):
        "cannot start \(path): \(step) failed: \(String(cString: strerror(code)))"
      }
    }
  }

  // Settings, read once by `run()`.
  /// The program to run.
  public var executableURL: URL?
  /// Its arguments, after its own path.
  public var arguments: [String] = []
  /// Its environment; nil passes this process's own.
  public var environment: [String: String]?
  /// Its working directory; nil keeps this process's own.
  public var currentDirectoryURL: URL?
  /// Its standard input; nil shares this process's own.
  public var standardInput: (any ChildStream)?
  /// Its standard output; nil shares this process's own.
  public var standardOutput: (any ChildStream)?
  /// Its standard error; nil shares this process's own.
  public var standardError: (any ChildStream)?

  private let condition = NSCondition()
  private var started = false
  private var pid: pid_t = 0
  private var waitStatus: Int32?

  /// A child not yet started.
  public init() {}

  /// The child's process id, 0 before `run()`.
  public var processIdentifier: Int32 {
    condition.withLock { pid }
  }

  /// Whether the child was started and has not yet been reaped.
  public var isRunning: Bool {
    condition.withLock { started && waitStatus == nil }
  }

  /// Its exit code, or the number of the signal that ended it; only once it has exited.
  public var terminationStatus: Int32 {
    let status = exitedStatus()
    return Self.signal(of: status) == 0 ? (status >> 8) & 0xff : Self.signal(of: status)
  }

  /// Whether it exited or a signal ended it; only once it has exited.
  public var terminationReason: TerminationReason {
    Self.signal(of: exitedStatus()) == 0 ? .exit : .uncaughtSignal
  }

  /// Starts the child.
  public func run() throws {
    guard let executableURL else { throw LaunchError.noExecutable }
    let path = executableURL.path
    try condition.withLock {
      guard !started else { throw LaunchError.alreadyStarted }
      let child = try Self.spawn(
        path: path, arguments: arguments, environment: environment,
        directory: currentDirectoryURL?.path,
        streams: [
          (standardInput, STDIN_FILENO, true), (standardOutput, STDOUT_FILENO, false),
          (standardError, STDERR_FILENO, false),
        ])
      started = true
      pid = child
    }
    standardInput?.closeChildEnd(reading: true)
    standardOutput?.closeChildEnd(reading: false)
    standardError?.closeChildEnd(reading: false)
    let reaper = Thread { [self] in reap() }
    reaper.name = "reckon-child-\(processIdentifier)"
    reaper.start()
  }

  /// Blocks the calling thread until the child has exited and been reaped.
  public func waitUntilExit() {
    _ = exitedStatus()
  }

  /// Sends the child SIGTERM if it still runs.
  public func terminate() {
    send(SIGTERM)
  }

  /// Sends the child `signal` if it still runs.
  public func send(_ signal: Int32) {
    condition.withLock {
      if started, waitStatus == nil { _ = kill(pid, signal) }
    }
  }

  private func reap() {
    let child = processIdentifier
    var status: Int32 = 0
    while waitpid(child, &status, 0) == -1 {
      guard errno == EINTR else {
        status = 0x7f  // reaped elsewhere: report it as ended by signal 127 rather than hang
        break
      }
    }
    condition.withLock {
      waitStatus = status
      condition.broadcast()
    }
  }

  private func exitedStatus() -> Int32 {
    condition.withLock {
      precondition(started, "the child was never started")
      while waitStatus == nil { condition.wait() }
      return waitStatus!
    }
  }

  private static func signal(of status: Int32) -> Int32 {
    status & 0x7f
  }

  /// Spawns the child in a process group of its own, with no signal blocked and no descriptor
  /// of this process open beyond its three standard streams.
  private static func spawn(
    path: String, arguments: [String], environment: [String: String]?, directory: String?,
    streams: [((any ChildStream)?, Int32, Bool)]
  ) throws -> pid_t {
    func check(_ step: String, _ result: Int32) throws {
      if result != 0 { throw LaunchError.spawn(path: path, step: step, errno: result) }
    }
    var actions = posix_spawn_file_actions_t()
    try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (stream, target, reading) in streams {
      guard let stream else { continue }
      let descriptor = stream.childDescriptor(reading: reading)
      if descriptor < 0 {
        try check(
          "opening /dev/null as descriptor \(target)",
          posix_spawn_file_actions_addopen(
            &actions, target, "/dev/null", reading ? O_RDONLY : O_WRONLY, 0))
      } else {
        try check(
          "dup2 of descriptor \(target)",
          posix_spawn_file_actions_adddup2(&actions, descriptor, target))
      }
    }
    try check("closefrom", cspawn_file_actions_addclosefrom(&actions, 3))
    if let directory {
      try check("chdir to \(directory)", cspawn_file_actions_addchdir(&actions, directory))
    }

    var attributes = posix_spawnattr_t()
    try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
    defer { posix_spawnattr_destroy(&attributes) }
    var nothingBlocked = sigset_t()
    sigemptyset(&nothingBlocked)
    try check("setsigmask", posix_spawnattr_setsigmask(&attributes, &nothingBlocked))
    try check(
      "setflags",
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK)))

    let argv = CStrings([path] + arguments)
    var pid = pid_t()
    let result: Int32
    if let environment {
      let envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
      result = posix_spawn(&pid, path, &actions, &attributes, argv.pointers, envp.pointers)
    } else {
      result = posix_spawn(&pid, path, &actions, &attributes, argv.pointers, environ)
    }
    try check("posix_spawn", result)
    return pid
  }
}

/// A NULL-terminated array of C strings, freed with it.
private final class CStrings {
  let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

  init(_ strings: [String]) {
    pointers = .allocate(capacity: strings.count + 1)
    for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
    pointers[strings.count] = nil
  }

  deinit {
    var index = 0
    while let string = pointers[index] {
      free(string)
      index += 1
    }
    pointers.deallocate()
  }
}

/// Something a child's standard stream can be: a `Pipe` (the child gets the end it needs) or a
/// `FileHandle` (`FileHandle.nullDevice` for /dev/null).
public protocol ChildStream {
  /// The descriptor the child gets, for reading if `reading`; a negative one means /dev/null.
  func childDescriptor(reading: Bool) -> Int32
  /// Closes this process's copy of what the child was given, once the child holds its own.
  func closeChildEnd(reading: Bool)
}

extension Pipe: ChildStream {
  /// The pipe's read end for a child's input, its write end for an output.
  public func childDescriptor(reading: Bool) -> Int32 {
    (reading ? fileHandleForReading : fileHandleForWriting).fileDescriptor
  }

  /// Closes the end the child holds, so reading the other end sees the child's end of file.
  public func closeChildEnd(reading: Bool) {
    try? (reading ? fileHandleForReading : fileHandleForWriting).close()
  }
}

extension FileHandle: ChildStream {
  /// The handle's own descriptor; -1, which the child gets as /dev/null, for `nullDevice`.
  public func childDescriptor(reading: Bool) -> Int32 {
    fileDescriptor
  }

  /// Leaves the handle open: its owner closes it.
  public func closeChildEnd(reading: Bool) {}
}
