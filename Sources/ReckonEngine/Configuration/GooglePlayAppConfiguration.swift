/// One Google Play app Reckon answers chargeback reviews for: an `apps` entry with
/// `"store": "googlePlay"`.
public struct GooglePlayAppConfiguration: Hashable, Sendable {
  /// The app's package name; reviews for other packages are refused.
  public var packageName: String
  /// The policy file that decides its reviews (it may be the one an App Store app uses, if
  /// it checks against both stores' words).
  public var policyPath: String

  init(_ reader: ConfigurationReader, resolve: (String) -> String) throws(ConfigurationError) {
    try reader.rejectUnknownKeys(["store", "packageName", "policy"])
    packageName = try reader.string("packageName")
    // Google's package names are Java-style: letters, digits and underscores in at least two
    // dot-separated parts, each starting with a letter.
    let parts = packageName.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 2,
      parts.allSatisfy({ part in
        guard let first = part.first, first.isASCII, first.isLetter else { return false }
        return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      })
    else {
      throw ConfigurationError(
        reader.keyPath("packageName"),
        "must be the app's package name as Play Console shows it, e.g. com.example.app")
    }
    policyPath = resolve(try reader.string("policy"))
  }
}
