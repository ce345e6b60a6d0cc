import Foundation
import ReckonSupport
import Testing

/// UUID text is read and written exactly as Foundation reads and writes it.
struct UUIDTextTests {
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
