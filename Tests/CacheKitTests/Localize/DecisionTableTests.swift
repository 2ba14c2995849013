import XCTest

@testable import PageRewrite

final class DecisionTableTests: XCTestCase {
    /// A reference put in twice has one slot; put in, it reads as undecided (unresolvable)
    /// until its slot is set; set by reference, a new one is put in and a known one replaced;
    /// one never put in reads as nil. Enough references to grow the dictionary past its first
    /// size.
    func testSlotsByReference() {
        var table = PageRewriter.DecisionTable()
        let references = (0..<300).map { "img/\($0).png" }
        var slots: [Int] = []
        for reference in references { slots.append(table.add(reference)!) }
        for reference in references { XCTAssertNil(table.add(reference), reference) }
        XCTAssertEqual(Set(slots).count, references.count)
        XCTAssertNil(table["img/0.png"]?.absolute)
        XCTAssertNil(table["never.png"])
        let made = references.map { _ in PageRewriter.Decision(resolved: nil, copy: nil, local: "local") }
        for (slot, decision) in zip(slots, made) { table.set(decision, at: slot) }
        for (reference, decision) in zip(references, made) { XCTAssertTrue(table[reference] === decision, reference) }
        let again = PageRewriter.Decision(resolved: nil, copy: nil, local: "again")
        table.set(again, for: "img/7.png")
        table.set(again, for: "new.png")
        XCTAssertTrue(table["img/7.png"] === again)
        XCTAssertTrue(table["new.png"] === again)
        XCTAssertTrue(table["img/8.png"] === made[8])
    }
}
