import CacheKit
import XCTest

/// The plan as a pure function of entries: no file system involved.
final class PrunePolicyTests: XCTestCase {
    let now = FileTime(seconds: 2_000_000_000)
    /// One inode per distinct name, numbered in order of first use: deterministic and never
    /// shared by accident (`hashValue` is seeded per process, so two names could collide).
    private var inodes: [String: UInt64] = [:]

    private func inode(for name: String) -> UInt64 {
        if let known = inodes[name] { return known }
        let next = UInt64(10 + inodes.count)
        inodes[name] = next
        return next
    }

    private func entry(
        _ name: String, _ kib: Int64, state: EntryState = .fresh, modifiedDaysAgo: Double = 1,
        lastAccessDaysAgo: Double? = nil, grace: Bool = false, inode: UInt64? = nil, links: UInt64 = 1
    ) -> CacheEntry {
        var e = CacheEntry(
            url: nil, path: RawPath("/c/" + name), allocatedBytes: kib * 1024, apparentBytes: kib * 1024,
            modified: now.adding(-modifiedDaysAgo * 86_400),
            lastAccess: lastAccessDaysAgo.map { now.adding(-$0 * 86_400) }, state: state, reason: state.rawValue)
        e.inGracePeriod = grace
        e.identity = FileIdentity(device: 1, inode: inode ?? self.inode(for: name), linkCount: links)
        return e
    }

    private func names(_ plan: PrunePlan, _ reason: PruneReason? = nil) -> [String] {
        plan.deletions.filter { reason == nil || $0.reason == reason }.map {
            String(decoding: $0.entry.path.lastComponent, as: UTF8.self)
        }
    }

    func testOrderCorruptedIncompleteThenExpiredThenSize() {
        let entries = [
            entry("fresh-old", 10, modifiedDaysAgo: 9), entry("fresh-new", 10, modifiedDaysAgo: 1),
            entry("broken", 10, state: .corrupted), entry("partial", 10, state: .incomplete),
            entry("stale", 10, state: .expired), entry("stray", 10, state: .orphan)
        ]
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 15 * 1024, now: now))
        XCTAssertEqual(names(plan), ["broken", "partial", "stray", "stale", "fresh-old", "fresh-new"])
        XCTAssertEqual(plan.deletions.map(\.reason), [.corrupted, .incomplete, .orphan, .expired, .size, .size])
        XCTAssertEqual(plan.bytesAfter, 0)
    }

    func testTrimsLeastRecentlyUsedToHalfTheCap() {
        let entries = (1...10).map { entry("f\($0)", 10, modifiedDaysAgo: Double($0)) }  // f10 oldest
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 80 * 1024, now: now))
        XCTAssertEqual(plan.sizeTarget, 40 * 1024)
        XCTAssertEqual(names(plan), ["f10", "f9", "f8", "f7", "f6", "f5"])
        XCTAssertEqual(plan.bytesAfter, 40 * 1024)
    }

    func testNothingTrimmedUnderTheCapAndTrimToIsHonoured() {
        let entries = (1...4).map { entry("f\($0)", 10, modifiedDaysAgo: Double($0)) }
        XCTAssertTrue(
            PrunePolicy.plan(entries, rules: PruneRules(maxSize: 40 * 1024, now: now)).deletions.isEmpty,
            "at the cap is not over it")
        let ninety = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 35 * 1024, trimTo: 0.9, now: now))
        XCTAssertEqual(names(ninety), ["f4"], "a 31.5 KiB target: 30 KiB left is enough")
        XCTAssertTrue(PrunePolicy.plan(entries, rules: PruneRules(now: now)).deletions.isEmpty, "no cap, no size step")
    }

    func testLastAccessBeatsModificationAndTiesGoByPath() {
        let entries = [
            entry("b", 10, modifiedDaysAgo: 9, lastAccessDaysAgo: 0.1),  // old file, used recently
            entry("a", 10, modifiedDaysAgo: 2, lastAccessDaysAgo: 5),
            entry("d", 10, modifiedDaysAgo: 3), entry("c", 10, modifiedDaysAgo: 3)
        ]
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 30 * 1024, now: now))
        XCTAssertEqual(names(plan), ["a", "c", "d"], "15 KiB target: only the recently used old file stays")
    }

    func testMaxAgeExpiresAnyFormat() {
        let entries = [entry("old", 10, modifiedDaysAgo: 10), entry("new", 10, modifiedDaysAgo: 1)]
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxAge: 7 * 86_400, now: now))
        XCTAssertEqual(names(plan, .expired), ["old"])
    }

    func testOutsideAndGracePeriodEntriesAreNeverChosen() {
        let entries = [
            entry("elsewhere", 500, state: .outside, modifiedDaysAgo: 100),
            entry("writing.part", 500, modifiedDaysAgo: 0, grace: true),
            entry("f", 10, modifiedDaysAgo: 3)
        ]
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 1, maxAge: 1, now: now))
        XCTAssertEqual(names(plan), ["f"])
        XCTAssertEqual(plan.kept.map { String(decoding: $0.entry.path.lastComponent, as: UTF8.self) }, ["elsewhere"])
    }

    func testHardLinkFreesBytesOnlyWithItsLastLink() {
        let entries = [
            entry("a", 100, modifiedDaysAgo: 5, inode: 7, links: 2),
            entry("b", 100, modifiedDaysAgo: 4, inode: 7, links: 2),
            entry("c", 100, modifiedDaysAgo: 3),
            entry("d", 100, modifiedDaysAgo: 9, inode: 8, links: 3)  // a third name lives outside the cache
        ]
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 250 * 1024, now: now))
        XCTAssertEqual(plan.bytesBefore, 300 * 1024, "each inode counted once")
        // Target 125 KiB: d frees nothing (a name outside keeps it), a nothing until b goes too.
        XCTAssertEqual(names(plan), ["d", "a", "b", "c"])
        XCTAssertEqual(plan.deletions.map(\.freesBytes), [0, 0, 100 * 1024, 100 * 1024])
        XCTAssertEqual(plan.bytesAfter, 100 * 1024)
    }
}
