import Foundation
import ReckonSupport
import Testing

/// UUID text is read and written exactly as Foundation reads and writes it.
struct UUIDTextTests {
  /// A UUID's case means nothing, so it is matched in lower case; other account ids keep theirs.
  @Test(arguments: [
    ("7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B", "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"),
    ("7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b", "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"),
    ("Acct-Mixed", "Acct-Mixed"), ("ABC", "ABC"),
    ("7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6", "7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6"),
  ])
  func anAccountKeyIsALowerCaseUUIDOrTheTextAsWritten(_ text: String, _ key: String) {
    #expect(UUIDText.accountKey(text) == key)
  }

  @Test func textIsWhatFoundationWrites() {
    for _ in 0..<500 {
      let uuid = UUID()
      #expect(UUIDText.text(uuid) == uuid.uuidString)
      #expect(UUIDText.text(uuid, uppercase: false) == uuid.uuidString.lowercased())
    }
  }

  @Test func textReadsBackAsTheUUIDFoundationReads() {
    for _ in 0..<500 {
      let uuid = UUID()
      for text in [uuid.uuidString, uuid.uuidString.lowercased()] {
        #expect(UUIDText.uuid(text) == uuid)
        #expect(UUIDText.uuid(text) == UUID(uuidString: text))
      }
    }
  }

  @Test(arguments: [
    "", "7e3fb20b-4cdb-47cc-936d-99d65f60813", "7e3fb20b-4cdb-47cc-936d-99d65f6081388",
    "7e3fb20b4-cdb-47cc-936d-99d65f608138", "7e3fb20b-4cdb-47cc-936d-99d65f60813g",
    "{7e3fb20b-4cdb-47cc-936d-99d65f608138}", " 7e3fb20b-4cdb-47cc-936d-99d65f608138",
    "7e3fb20b-4cdb-47cc-936d_99d65f608138", "7e3fb20b-4cdb-47cc-936d-99d65f6081é",
  ])
  func whatFoundationRefusesIsRefused(text: String) {
    #expect(UUID(uuidString: text) == nil)
    #expect(UUIDText.uuid(text) == nil)
  }
}
