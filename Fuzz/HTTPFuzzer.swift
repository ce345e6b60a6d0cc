/// libFuzzer entry point: any bytes fed to the HTTP/1.1 request parser, split at a point the input
/// chooses, yield requests or a typed error, never a crash, a hang or unbounded buffering.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
  var parser = HTTPRequestParser(limits: .init(maximumHeaderBytes: 2_048, maximumHeaderCount: 32, maximumBodyBytes: 4_096))
  for chunk in [bytes[..<split], bytes[split...]] {
    parser.feed(chunk)
    var requests = 0
    while requests < 64 {
      guard let request = try? parser.next(), request != nil else { break }
      requests += 1
    }
  }
  return 0
}
