import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A JSON-lines file of past notifications, mapped into memory and indexed: where each line is,
/// and each line's `transactionId` as found by a quick look, so the lines can be visited in the
/// order of an ordered facts scan without decoding them twice.
public final class RequestLines: @unchecked Sendable {
  /// The file.
  public let path: String
  private let base: UnsafeMutableRawPointer?
  private let size: Int
  /// Byte offset of each non-blank line's start, and its length.
  private(set) var starts: [Int] = []
  private(set) var lengths: [Int32] = []
  /// Each line's quick sort key: the first 16 bytes of `"transactionId":"…"` packed big-endian.
  private(set) var keys: [(high: UInt64, low: UInt64)] = []
  /// Each line's 1-based number in the file, for messages.
  private(set) var numbers: [Int32] = []

  /// Maps and indexes `path`.
  public convenience init(path: String) throws(DryRunError) {
    try self.init(path: path, parts: nil)
  }

  /// Maps and indexes `path` in `parts` parts (by default one below 16 MiB, else one per core).
  init(path: String, parts: Int?) throws(DryRunError) {
    self.path = path
    let opened: (descriptor: Int32, size: Int)
    do throws(LocalFileError) { opened = try LocalFile.openForReading(path) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    let descriptor = opened.descriptor
    defer { close(descriptor) }
    size = opened.size
    if size == 0 {
      base = nil
    } else {
      let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
      guard let mapped, mapped != MAP_FAILED else {
        throw .unreadable(
          path: path, reason: "cannot be read: \(String(cString: strerror(errno)).lowercased())")
      }
      madvise(mapped, size, MADV_SEQUENTIAL)
      base = mapped
    }
    index(parts: parts ?? (size < 1 << 24 ? 1 : ProcessInfo.processInfo.activeProcessorCount))
  }

  deinit {
    if let base { munmap(base, size) }
  }

  /// How many lines hold something.
  public var count: Int { starts.count }

  /// Calls `body` with the bytes of line `index`.
  func withLine<T, E: Error>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T)
    throws(E) -> T
  {
    let pointer = base!.advanced(by: starts[index]).assumingMemoryBound(to: UInt8.self)
    return try body(UnsafeBufferPointer(start: pointer, count: Int(lengths[index])))
  }

  /// The line's bytes as `Data`, for the general decoders.
  func data(_ index: Int) -> Data { withLine(index) { Data($0) } }

  /// Line indices in the order of their transaction ids (lines without a quick key last).
  func orderedByTransaction() -> [Int] {
    var order = Array(0..<count)
    // Strictly increasing only: keys are id prefixes, so two equal keys may be different ids
    // in the wrong order, which the sort below puts right.
    let sorted = zip(keys, keys.dropFirst()).allSatisfy { $0.0 < $0.1 }
    guard !sorted else { return order }
    order.sort { left, right in
      let (a, b) = (keys[left], keys[right])
      if a != b { return a < b }
      return quickKey(left).lexicographicallyPrecedes(quickKey(right))
    }
    return order
  }

  /// The bytes of a line's `"transactionId":"…"` value, or empty.
  func quickKey(_ index: Int) -> [UInt8] {
    withLine(index) { line in RequestLines.findTransactionId(line).map { Array($0) } ?? [] }
  }

  /// Indexes the file in a few parts side by side, each from a line start, then joins them.
  private func index(parts: Int) {
    guard let base else { return }
    let parts = max(1, parts)
    var bounds = [0]
    for part in 1..<parts {
      let guess = max(bounds[part - 1], size * part / parts)
      let newline = memchr(base.advanced(by: guess), 0x0A, size - guess)
      bounds.append(newline.map { base.distance(to: $0) + 1 } ?? size)
    }
    bounds.append(size)
    let limits = bounds
    // Each part writes only its own element, and the file is mapped read-only.
    nonisolated(unsafe) let pieces = UnsafeMutableBufferPointer<LineIndex>.allocate(
      capacity: parts)
    nonisolated(unsafe) let mapped = base
    pieces.initialize(repeating: LineIndex())
    defer { pieces.deinitialize().deallocate() }
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      pieces[part] = LineIndex(base: mapped, range: limits[part]..<limits[part + 1])
    }
    var linesBefore: Int32 = 0
    for piece in pieces {
      starts.append(contentsOf: piece.starts)
      lengths.append(contentsOf: piece.lengths)
      keys.append(contentsOf: piece.keys)
      numbers.append(contentsOf: piece.numbers.map { $0 + linesBefore })
      linesBefore += piece.lines
    }
  }

  /// The index of one part of the file; line numbers count from the part's start.
  private struct LineIndex {
    var starts: [Int] = []
    var lengths: [Int32] = []
    var keys: [(high: UInt64, low: UInt64)] = []
    var numbers: [Int32] = []
    var lines: Int32 = 0

    init() {}

    init(base: UnsafeMutableRawPointer, range: Range<Int>) {
      let bytes = UnsafeBufferPointer(
        start: base.assumingMemoryBound(to: UInt8.self), count: range.upperBound)
      var start = range.lowerBound
      while start < range.upperBound {
        lines += 1
        var end = range.upperBound
        if let found = memchr(base.advanced(by: start), 0x0A, range.upperBound - start) {
          end = base.distance(to: found)
        }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if line.contains(where: { $0 > 0x20 }) {
          starts.append(start)
          lengths.append(Int32(end - start))
          numbers.append(lines)
          keys.append(RequestLines.findTransactionId(line).map(RequestLines.pack) ?? (.max, .max))
        }
        start = end + 1
      }
    }
  }

  private static let pattern = Array(#""transactionId":""#.utf8)

  /// The bytes after the first `"transactionId":"` in the line, up to the next quote.
  static func findTransactionId(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    guard let base = line.baseAddress, line.count > pattern.count else { return nil }
    // Found by its capital I, which a line holds a few of, rather than by each of the hundred
    // quotes before it: every match has one at `capital` (`memmem` is not in Glibc's module).
    let capital = 12
    var position = capital
    let last = line.count - pattern.count + capital
    while position <= last,
      let found = memchr(base + position, Int32(UInt8(ascii: "I")), last - position + 1)
    {
      position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      if memcmp(base + position - capital, pattern, pattern.count) == 0 {
        let start = position - capital + pattern.count
        let end =
          memchr(base + start, Int32(UInt8(ascii: "\"")), line.count - start).map {
            base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
          } ?? line.count
        return UnsafeBufferPointer(rebasing: line[start..<end])
      }
      position += 1
    }
    return nil
  }

  static func pack(_ key: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64) {
    var high: UInt64 = 0
    var low: UInt64 = 0
    for offset in 0..<16 {
      let byte = offset < key.count ? UInt64(key[offset]) : 0
      if offset < 8 { high = high << 8 | byte } else { low = low << 8 | byte }
    }
    return (high, low)
  }
}
