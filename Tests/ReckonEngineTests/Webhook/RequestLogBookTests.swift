import ReckonEngine
import Testing

/// The book keeps the log contexts of the latest requests only, so a long-running service's
/// memory does not grow with every request it ever answered.
struct RequestLogBookTests {
  @Test func theOldestContextsGoFirstOnceTheBookIsFull() {
    let book = RequestLogBook(capacity: 3)
    let contexts = (1...10).map { _ in RequestLogContext() }
    for (index, context) in contexts.enumerated() { book.keep(context, for: Int64(index + 1)) }
    #expect((1...7).allSatisfy { book.context(for: Int64($0)) == nil })
    #expect((8...10).allSatisfy { book.context(for: Int64($0)) === contexts[$0 - 1] })
  }

  @Test func keepingARequestAgainKeepsItsPlace() {
    let book = RequestLogBook(capacity: 2)
    let first = RequestLogContext()
    book.keep(first, for: 1)
    book.keep(RequestLogContext(), for: 1)
    book.keep(RequestLogContext(), for: 2)
    #expect(book.context(for: 1) != nil)
    #expect(book.context(for: 2) != nil)
  }

  /// A retry pass that took a request up first logs its decision under the context it kept:
  /// the request's own keep, coming after, must not give the send another id.
  @Test func theFirstContextKeptForARequestStays() {
    let book = RequestLogBook(capacity: 2)
    let first = RequestLogContext()
    #expect(book.keep(first, for: 1) === first)
    #expect(book.keep(RequestLogContext(), for: 1) === first)
    #expect(book.context(for: 1) === first)
  }

  @Test func aNewIdIsSixteenHexadecimalDigits() {
    let ids = (0..<100).map { _ in RequestLogContext.newId() }
    #expect(ids.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
    #expect(Set(ids).count == ids.count)
  }
}
