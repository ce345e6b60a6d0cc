import ReckonPolicy
import Testing

@testable import ReckonTools

/// Tables line up in a terminal whatever the names are written in: wide characters take two
/// cells.
struct CoverageAlignmentTests {
  @Test func aColumnOfWideNamesPadsByTerminalCells() {
    let column = TextColumn(["払い戻し", "refund", "🙂🙂"], minimum: 4, maximum: 40)
    #expect(column.width == 8)
    let cells = ["払い戻し", "refund", "🙂🙂"].map(column.cell)
    #expect(cells.map(\.terminalWidth) == [8, 8, 8])
  }

  @Test func aWideNameCutToTheColumnEndsInAnEllipsisWithinIt() {
    let column = TextColumn(["短い"], minimum: 1, maximum: 5)
    let cell = column.cell("払い戻しの規則")
    #expect(cell.hasSuffix("…"))
    #expect(cell.terminalWidth == column.width)
  }
}
