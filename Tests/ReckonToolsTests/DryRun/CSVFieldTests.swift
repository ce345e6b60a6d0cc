import Testing

@testable import ReckonTools

/// Fields of Reckon's CSV files, which people open in spreadsheets.
struct CSVFieldTests {
  @Test(arguments: [
    ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
    ("+cmd", "'+cmd"),
    ("-2+3", "'-2+3"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"),
    ("-4.99", "-4.99"),
    ("+12", "+12"),
    ("heavy use", "heavy use"),
    ("a, b", "\"a, b\""),
    ("", ""),
  ])
  func textASpreadsheetWouldRunIsDefusedAndNumbersStay(field: String, written: String) {
    #expect(DryRunRows.escape(field) == written)
  }
}
