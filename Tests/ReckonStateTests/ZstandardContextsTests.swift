import CZstd
import Foundation
import Testing

@testable import ReckonState

/// zstd contexts are reused with nothing left from their last use, and only as many are kept
/// as the limit says.
struct ZstandardContextsTests {
  @Test func aReusedCompressorHasNoPrefixLeftFromItsLastUse() throws {
    let contexts = ZstandardContexts(limit: 1)
    let prefix = DeflatedTests.echoing(2_000)
    let value = prefix + Data("and a little more".utf8)
    // zstd only refers to the prefix, which must stay where it is until the compression ends.
    let first = contexts.withCompressor { context in
      prefix.withUnsafeBytes { bytes in
        ZSTD_CCtx_refPrefix(context, bytes.baseAddress, bytes.count)
        return (context, Self.compress(value, with: context))
      }
    }
    #expect(first.1.count < 100, "the prefix was not referred to")
    let second = contexts.withCompressor { context in (context, Self.compress(value, with: context))
    }
    #expect(second.0 == first.0, "the context was not kept for reuse")
    #expect(second.1.count > 100, "the second compression referred to the first one's prefix")
    var restored = [UInt8](repeating: 0, count: value.count)
    let size = second.1.withUnsafeBytes { source in
      ZSTD_decompress(&restored, restored.count, source.baseAddress, source.count)
    }
    #expect(ZSTD_isError(size) == 0 && Data(restored[..<size]) == value)
  }

  /// `Zstandard` sets its level and checksum on every use; any other setting must not carry
  /// over. A reused context compresses exactly as a new one does.
  @Test func aReusedCompressorHasNoParametersLeftFromItsLastUse() throws {
    let value = Data(
      (0..<2_000).map { "{\"id\":\"pack\($0 * 7_919 % 1_009)\",\"n\":\($0 % 7)}" }.joined().utf8)
    let contexts = ZstandardContexts(limit: 1)
    contexts.withCompressor { context in
      ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 19)
      ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    }
    let reused = contexts.withCompressor { Self.compress(value, with: $0) }
    let fresh = try #require(ZSTD_createCCtx())
    defer { ZSTD_freeCCtx(fresh) }
    #expect(reused == Self.compress(value, with: fresh), "a setting was left from the last use")
  }

  @Test func noMoreContextsAreKeptThanTheLimit() {
    let contexts = ZstandardContexts(limit: 2)
    contexts.withCompressor { _ in
      contexts.withCompressor { _ in
        contexts.withCompressor { _ in contexts.withDecompressor { _ in } }
      }
    }
    #expect(contexts.kept.compressors == 2)
    #expect(contexts.kept.decompressors == 1)
  }

  @Test func valuesCompressedAtOnceOnManyThreadsReadBack() async throws {
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 0..<32 {
        group.addTask {
          let value = DeflatedTests.echoing(500 + index * 97)
          let prefix = index.isMultiple(of: 2) ? DeflatedTests.echoing(300) : nil
          let stored = Zstandard.compress(value, prefix: prefix)
          return try Zstandard.decompress(stored, prefix: prefix, what: "a test") == value
        }
      }
      for try await readBack in group { #expect(readBack) }
    }
  }

  private static func compress(_ value: Data, with context: OpaquePointer) -> Data {
    var output = [UInt8](repeating: 0, count: ZSTD_compressBound(value.count))
    let size = value.withUnsafeBytes { source in
      ZSTD_compress2(context, &output, output.count, source.baseAddress, source.count)
    }
    return Data(output[..<size])
  }
}
