/// The ISO 4217 currency codes a policy or tests file may write after an amount: the active ones,
/// and those withdrawn since 2008, which past purchases (and so a dry-run's facts) still carry.
///
/// Source: ISO 4217 List One, "Current currency & funds code list", as published by SIX
/// Financial Information for ISO (www.six-group.com/en/products-services/financial-information/
/// data-standards.html), 2025 edition: XCG replaces ANG, ZWG replaces ZWL, SLE replaces SLL;
/// and List Three (historic denominations) for the withdrawn ones. Update it when ISO amends the
/// lists.
public enum CurrencyCodes {
  /// Every active code, the commonest first, so a typo as near to two codes goes to the one more
  /// often meant (`USE` to USD, not USN).
  public static let ordered: [String] = commonest + (rest.sorted())

  /// Codes withdrawn since 2008 (Croatia's kuna in 2023, the Netherlands Antillean guilder in
  /// 2025…): refunds of old purchases and past data still name them, and a policy must be able
  /// to as well. Never suggested for a typo.
  public static let withdrawn: Set<String> = [
    "ANG", "BYR", "CUC", "CYP", "EEK", "GHC", "HRK", "LTL", "LVL", "MRO", "MTL", "SIT", "SKK",
    "SLL", "STD", "VEF", "ZMK", "ZWL",
  ]

  /// The codes, for lookup.
  public static let all: Set<String> = Set(ordered).union(withdrawn)

  /// Whether `code` is an ISO 4217 code, active or withdrawn since 2008.
  public static func isKnown(_ code: String) -> Bool { all.contains(code) }

  /// The known code one letter away from `code`, or nil when none is that close.
  public static func suggestion(for code: String) -> String? {
    // Any two three-letter codes are at most three edits apart, so only one edit reads as a typo.
    ordered.first { Suggestions.editDistance($0, code) == 1 }
  }

  private static let commonest = [
    "USD", "EUR", "GBP", "JPY", "CNY", "CAD", "AUD", "CHF", "INR", "BRL", "MXN", "KRW",
  ]

  private static let rest: Set<String> = [
    "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD",
    "BIF", "BMD", "BND", "BOB", "BOV", "BSD", "BTN", "BWP", "BYN", "BZD", "CDF", "CHE", "CHW",
    "CLF", "CLP", "COP", "COU", "CRC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP",
    "ERN", "ETB", "FJD", "FKP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL",
    "HTG", "HUF", "IDR", "ILS", "IQD", "IRR", "ISK", "JMD", "JOD", "KES", "KGS", "KHR", "KMF",
    "KPW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA",
    "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXV", "MYR", "MZN", "NAD", "NGN",
    "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR",
    "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS",
    "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD",
    "TWD", "TZS", "UAH", "UGX", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV",
    "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD",
    "XPF", "XPT", "XSU", "XTS", "XUA", "XXX", "YER", "ZAR", "ZMW", "ZWG",
  ]
}
