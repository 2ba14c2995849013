import TestSupport
import XCTest

@testable import CacheKit
@testable import CacheKitFetch
@testable import CacheKitFiles
@testable import CacheKitPrune
@testable import CacheKitStore
@testable import CacheKitSupport
@testable import CacheKitWalk

/// The compact table gives back exactly what was put in, plans exactly as whole entries do,
/// and holds a plain folder's files in a fixed-size record each.
final class CacheEntriesTests: XCTestCase {
    let now = FileTime(seconds: 2_000_000_000)

    private func file(
        _ relative: String, root: String = "/c", bytes: Int64 = 4096, daysAgo: Double = 1, inode: UInt64,
        state: EntryState = .fresh, reason: String = "no age rule"
    ) -> CacheEntry {
        let modified = now.adding(-daysAgo * 86_400)
        var e = CacheEntry(
            url: nil, path: RawPath(root).appending(Array(relative.utf8)), relativePath: Array(relative.utf8),
            allocatedBytes: bytes, apparentBytes: bytes - 7, modified: modified, state: state, reason: reason)
        e.identity = FileIdentity(device: 9, inode: inode, linkCount: 1, size: bytes - 7, modified: modified)
        return e
    }

    /// Every stored property, nested ones included (a struct's reflection lists them all).
    private func dump(_ entry: CacheEntry) -> String { String(reflecting: entry) }

    private func assertSame(
        _ table: CacheEntries, _ entries: [CacheEntry], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(table.count, entries.count, file: file, line: line)
        for (got, want) in zip(table, entries) { XCTAssertEqual(dump(got), dump(want), file: file, line: line) }
    }

    /// One of each kind of entry the formats make: compact ones and every reason to keep an
    /// entry whole.
    private func variety() -> [CacheEntry] {
        var out = [file("ab/1.cache", inode: 1), file("ab/2.part", inode: 2, state: .incomplete, reason: "partial")]
        var grace = file("3.tmp", inode: 3)
        grace.inGracePeriod = true
        out.append(grace)
        out.append(file("x", root: "/", inode: 4))
        out.append(file("y", root: "/trailing/", inode: 5))
        out.append(file("z", root: "//double//", inode: 6))
        var linked = file("hard", inode: 7)
        linked.identity?.linkCount = 2
        out.append(linked)
        var unit = file("unit", inode: 8)
        unit.isUnit = true
        unit.identity?.size = 4096
        out.append(unit)
        var database = file("db.sqlite", inode: 9)
        database.isDatabase = true
        database.removedOnlyWhenNamed = true
        database.companions = [
            .init(relativePath: Array("db.sqlite-wal".utf8), identity: file("w", inode: 10).identity!)
        ]
        out.append(database)
        var native = file("objects/aa/aa.bin", inode: 11, state: .expired, reason: "expired 2 days ago")
        native.url = "https://a.example/x"
        native.indexKey = native.url
        native.lastAccess = now.adding(-5)
        native.expires = now.adding(-10)
        native.contentType = "image/png"
        native.etag = "\"e\""
        out.append(native)
        out.append(
            CacheEntry(
                url: nil, path: "/elsewhere/thing", allocatedBytes: 1, apparentBytes: 1, modified: nil,
                state: .outside, reason: "indexed outside the cache"))
        var pinned = file("pinned", inode: 12)
        pinned.pinnedBy = ["/home/u/page.html"]
        out.append(pinned)
        var noTime = file("no-time", inode: 13)
        (noTime.modified, noTime.identity) = (nil, nil)
        out.append(noTime)
        var inline = file("inline", inode: 14)
        inline.inlineBody = true
        inline.origin = 3
        out.append(inline)
        var farOrigin = file("far", inode: 15)
        farOrigin.origin = 70_000
        out.append(farOrigin)
        var before1970 = file("old", inode: 17)
        before1970.modified = FileTime(seconds: -300_000_000, nanoseconds: 5)
        before1970.identity?.modified = before1970.modified!
        out.append(before1970)
        var year3000 = file("future", inode: 18)
        year3000.modified = FileTime(seconds: 32_503_680_000, nanoseconds: 999_999_999)
        year3000.identity?.modified = year3000.modified!
        out.append(year3000)
        var mismatched = file("moved", root: "/c", inode: 16)
        mismatched.path = "/c/not-what-relative-says"
        out.append(mismatched)
        return out
    }

    func testEveryEntryComesBackAsAppended() {
        let entries = variety()
        let table = CacheEntries(entries)
        assertSame(table, entries)
        // The plain files, the graced one, the unusual roots, the one without times, the
        // inline one and one from 1960 are records; a hard link, a unit, a database with its
        // companion, a native row, one outside, a pinned one, a far origin, a time past 2262
        // (nanoseconds since 1970 no longer fit 64 bits) and a path that is not a root + the
        // relative path are whole.
        XCTAssertEqual(table.records.filter { $0.wholeIndex == 0 }.count, 9)
        XCTAssertEqual(MemoryLayout<CacheEntries.Record>.stride, 48)
    }

    func testAppendingTablesKeepsEntriesAndSetsTheirOrigin() {
        let first = variety()
        let second = [file("b/1", root: "/other", inode: 100), file("b/2", root: "/other", inode: 101)]
        var table = CacheEntries(first)
        table.append(contentsOf: CacheEntries(second), origin: 2)
        let expected =
            first
            + second.map { entry -> CacheEntry in
                var e = entry
                e.origin = 2
                return e
            }
        assertSame(table, expected)
        XCTAssertEqual(table.origin(first.count), 2)
    }

    func testChangingAndRemovingRecords() {
        var table = CacheEntries((0..<5).map { file("f\($0)", inode: UInt64($0 + 1)) })
        table.setState(1, .corrupted, reason: "cut short at byte 12", inGracePeriod: false)
        table.setState(2, .incomplete, reason: "cut short, last written 1s ago", inGracePeriod: true)
        table.remove([0, 3])
        XCTAssertEqual(table.map { String(decoding: $0.relativePath!, as: UTF8.self) }, ["f1", "f2", "f4"])
        XCTAssertEqual(table.map(\.state), [.corrupted, .incomplete, .fresh])
        XCTAssertEqual(table.map(\.inGracePeriod), [false, true, false])
        XCTAssertEqual(table[0].reason, "cut short at byte 12")
    }

    /// The same cache planned from compact records and from whole entries (each made whole by
    /// an ETag, which the planner never reads) gives the same deletions in the same order:
    /// ties of clock broken by path, hard links, grace, states, --max-age and the size trim.
    func testCompactAndWholeEntriesPlanAlike() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var entries: [CacheEntry] = []
            for i in 0..<300 {
                let states: [EntryState] = [.fresh, .fresh, .fresh, .expired, .corrupted, .incomplete, .orphan]
                var e = file(
                    "d\(Int.random(in: 0..<4, using: &generator))/n\(Int.random(in: 0..<1000, using: &generator))-\(i)",
                    bytes: 4096 * Int64.random(in: 1...8, using: &generator),
                    daysAgo: Double(Int.random(in: 0..<10, using: &generator)), inode: UInt64(i + 1),
                    state: states.randomElement(using: &generator)!)
                e.inGracePeriod = Int.random(in: 0..<20, using: &generator) == 0
                entries.append(e)
            }
            let whole = entries.map { entry -> CacheEntry in
                var e = entry
                e.etag = "\"whole\""
                return e
            }
            let compact = CacheEntries(entries)
            XCTAssertTrue(compact.records.allSatisfy { $0.wholeIndex == 0 })
            let total = entries.reduce(Int64(0)) { $0 + $1.allocatedBytes }
            let byWorth = SizeRule(
                ratio: 0.9, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false, owner: "worth",
                startsAbove: 0.95, byAgeTimesSize: true)
            let partitioned = SizeRule(
                ratio: 0.8, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false, owner: "parts",
                partitions: 4)
            for rule in [SizeRule.seed, byWorth, partitioned] {
                let rules = PruneRules(maxSize: total / 2, maxAge: 5 * 86_400, now: now)
                let a = PrunePolicy.plan(compact, rules: rules, sizeRule: rule)
                let b = PrunePolicy.plan(whole, rules: rules, sizeRule: rule)
                XCTAssertEqual(a.deletions.map(\.entry.path), b.deletions.map(\.entry.path), "round \(round)")
                XCTAssertEqual(a.deletions.map(\.reason), b.deletions.map(\.reason))
                XCTAssertEqual(a.bytesAfter, b.bytesAfter)
            }
        }
    }

    /// A plain folder's files are records, not whole entries: 48 bytes and their relative
    /// path each, what lets `prune` plan over millions of files (`Scripts/bench/prune`). A
    /// hard link and a database with its write-ahead log are whole; the table lists what the
    /// entries did before it existed.
    func testAPlainFolderIsStoredAsRecords() throws {
        let tree = TestTree("entries")
        for i in 0..<300 { tree.file(String(format: "%02x/%d.cache", i % 16, i), size: 100) }
        tree.file("CACHEDIR.TAG", contents: Array("Signature: 8a477f597d28d172789f06886806bc55\n".utf8))
        tree.hardLink("00/0.cache", "linked")
        tree.file("app.db", contents: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 1008))
        tree.file("app.db-wal", size: 10)
        let format = try CacheFormats.open(tree.root, as: .plain)
        let context = InspectionContext(now: .now)
        let table = try format.entryTable(context)
        XCTAssertEqual(table.count, 301 + 1)
        XCTAssertEqual(table.records.filter { $0.wholeIndex != 0 }.count, 3, "the two names of the linked file, the db")
        let database = try XCTUnwrap(table.first { $0.isDatabase })
        XCTAssertEqual(database.companions.map { String(decoding: $0.relativePath, as: UTF8.self) }, ["app.db-wal"])
        let listed = try format.entries(context)
        XCTAssertEqual(listed.map(dump), table.map(dump))
    }
}
