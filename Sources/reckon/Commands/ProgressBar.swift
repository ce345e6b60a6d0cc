import Foundation
import ReckonEngine
import ReckonTools

#if canImport(Glibc)
  import Glibc
#endif

/// A progress bar with rate and ETA on standard error, redrawn a few times a second, only when
/// standard error is a terminal.
final class ProgressBar: @unchecked Sendable {
  private let done: @Sendable () -> Int
  private let total: @Sendable () -> Int
  private let timer: any DispatchSourceTimer
  private let start = Date()
  private let lock = NSLock()
  private var finished = false

  /// Starts drawing a dry-run's progress, or returns nil when standard error is not a terminal.
  convenience init?(control: DryRunControl) {
    self.init(done: { control.completed }, total: { control.expected })
  }

  /// Starts drawing `done()` of `total()`, or returns nil when standard error is not a terminal.
  init?(done: @escaping @Sendable () -> Int, total: @escaping @Sendable () -> Int) {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    self.done = done
    self.total = total
    timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "reckon.progress"))
    timer.schedule(deadline: .now() + 0.2, repeating: 0.2)
    timer.setEventHandler { [weak self] in self?.draw() }
    timer.resume()
  }

  /// Stops drawing and clears the line.
  func finish() {
    let first = lock.withLock { () -> Bool in
      defer { finished = true }
      return !finished
    }
    guard first else { return }
    timer.cancel()
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }

  private func draw() {
    guard !lock.withLock({ finished }) else { return }
    // Erased to the end of the line after it: a shorter line (ETA 4s after ETA 10s) would
    // otherwise leave the old one's last characters behind.
    FileHandle.standardError.write(
      Data(
        ("\r"
          + ProgressBar.line(
            done: done(), total: total(),
            seconds: Date().timeIntervalSince(start)) + "\u{1B}[K").utf8))
  }

  /// `[#####.....]  45%  450,000/1,000,000  210,000/s  ETA 3s`, counts with thousands
  /// separators.
  static func line(done: Int, total: Int, seconds: Double) -> String {
    let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
    let filled = Int(fraction * 30)
    let rate = seconds > 0 ? Double(done) / seconds : 0
    let eta = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : 0
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
      + "] " + String(format: "%3d%%", Int(fraction * 100))
      + "  \(DryRunText.n(done))/\(DryRunText.n(total))  \(DryRunText.n(Int(rate)))/s  ETA \(eta)s"
  }
}

/// Turns Ctrl-C (SIGINT) into a call, through a dispatch source, for as long as it lives.
final class InterruptHandler: @unchecked Sendable {
  private let source: any DispatchSourceSignal

  init(_ action: @escaping @Sendable () -> Void) {
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(
      signal: SIGINT, queue: DispatchQueue(label: "reckon.interrupt"))
    source.setEventHandler(handler: action)
    source.resume()
  }

  func cancel() {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}
