import CZlib
import Foundation

/// zlib's deflate, as states stored compressed values (facts and explanations, packed
/// notifications) in format 1: the original length first, as a varint, then the zlib stream, so
/// reading back allocates once and a damaged value is refused rather than read short. A
/// dictionary (bytes the value likely repeats, stored beside it) makes a small value smaller
/// still; the same one must be given to read it back. States now write `Zstandard`; rows in
/// format 1 read back through this, and tests write them with it.
public enum Deflated {
  /// `data`, compressed, with `dictionary` as zlib's preset dictionary when given.
  public static func compress(_ data: Data, dictionary: Data? = nil) -> Data {
    var output = Data()
    VarInt.append(UInt64(data.count), to: &output)
    var stream = z_stream()
    // As format 1 was written: memory level 4, zlib's full window.
    var status = deflateInit2_(
      &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15, 4, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    defer { deflateEnd(&stream) }
    if status == Z_OK, let dictionary, !dictionary.isEmpty {
      status = dictionary.withUnsafeBytes { bytes in
        deflateSetDictionary(
          &stream, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(dictionary.count))
      }
    }
    var compressed = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))))
    if status == Z_OK {
      status = data.withUnsafeBytes { source in
        compressed.withUnsafeMutableBufferPointer { target in
          stream.next_in = UnsafeMutablePointer(
            mutating: source.bindMemory(to: Bytef.self).baseAddress)
          stream.avail_in = uInt(data.count)
          stream.next_out = target.baseAddress
          stream.avail_out = uInt(target.count)
          return deflate(&stream, Z_FINISH)
        }
      }
    }
    // Deflating into deflateBound's size fails only out of memory, which cannot be answered
    // here: stored anyway, the value would be read back as damaged.
    precondition(status == Z_STREAM_END, "zlib deflate failed: \(status)")
    output.append(contentsOf: compressed[..<Int(stream.total_out)])
    return output
  }

  /// What `compress` compressed with the same `dictionary`; throws for anything else.
  public static func decompress(
    _ data: Data, dictionary: Data? = nil, what: @autoclosure () -> String
  ) throws(StateError) -> Data {
    var offset = data.startIndex
    let length = try VarInt.readLength(data, at: &offset, what: what())
    var output = [UInt8](repeating: 0, count: length + 1)
    var stream = z_stream()
    var status = inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    defer { inflateEnd(&stream) }
    let input = data[offset...]
    input.withUnsafeBytes { source in
      output.withUnsafeMutableBufferPointer { target in
        stream.next_in = UnsafeMutablePointer(
          mutating: source.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        guard status == Z_OK else { return }
        status = inflate(&stream, Z_FINISH)
        guard status == Z_NEED_DICT, let dictionary else { return }
        status = dictionary.withUnsafeBytes { bytes in
          inflateSetDictionary(
            &stream, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(dictionary.count))
        }
        guard status == Z_OK else { return }
        status = inflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END, stream.total_out == UInt(length), stream.avail_in == 0 else {
      throw .unreadableRow(
        what: what(), reason: "its compressed bytes are damaged (zlib \(status))")
    }
    return Data(output[..<length])
  }
}

/// Unsigned LEB128 integers, as the packed forms write lengths and references.
enum VarInt {
  /// Appends `value`.
  static func append(_ value: UInt64, to output: inout Data) {
    var rest = value
    while rest >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    output.append(UInt8(rest))
  }

  /// Appends `value`.
  static func append(_ value: UInt64, to output: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    output.append(UInt8(rest))
  }

  /// The largest value read back: far above any explanation or notification, so a damaged
  /// length cannot ask for gigabytes.
  static let largestLength = 256 << 20

  /// The length a compressed value starts with, at `offset`, moving past it; `what` names the
  /// row in the error for a damaged one.
  static func readLength(_ data: Data, at offset: inout Data.Index, what: @autoclosure () -> String)
    throws(StateError) -> Int
  {
    guard let length = read(data, at: &offset), length <= largestLength else {
      throw .unreadableRow(what: what(), reason: "its compressed length is damaged")
    }
    return Int(length)
  }

  /// The integer at `offset`, moving past it; nil at the end or for one over 64 bits.
  static func read<Bytes: Collection<UInt8>>(_ bytes: Bytes, at offset: inout Bytes.Index)
    -> UInt64?
  {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.endIndex, shift < 64 {
      let byte = bytes[offset]
      offset = bytes.index(after: offset)
      value |= UInt64(byte & 0x7F) << shift
      guard byte & 0x80 != 0 else { return value }
      shift += 7
    }
    return nil
  }
}
