
/// libFuzzer entry point: any bytes as a policy file must load (lex, parse, check, compile) and,
/// when it loads, decide on empty facts, without crashing, hanging or growing without bound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicy(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let result = PolicyLoader.load(SourceFile(path: "fuzz.policy", text: text), schema: FactSchema.standard.policySchema)
  _ = result.renderedDiagnostics()
  if let policy = result.policy {
    _ = policy.evaluate(policy.makeFacts(), trace: true)
  }
  return 0
}
