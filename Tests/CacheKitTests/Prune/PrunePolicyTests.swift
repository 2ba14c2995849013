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

    /// Chromium weighs each entry's idle time by its size as its index keeps it, the files'
    /// lengths in 256-byte chunks, plus 512 (simple_index.cc `StartEvictionIfNeeded`,
    /// `EntryMetadata::GetEntrySize`). A 100-byte entry idle four days weighs
    /// 4 × (256 + 512) = 3,072; a 5,000-byte one idle one day 1 × (5,120 + 512) = 5,632, and goes
    /// first. By the blocks the files take (4 KiB and 8 KiB), the small one went first.
    func testChromiumWeighsIdleTimeByTheFilesLengths() {
        func entry(_ name: String, length: Int64, blocks: Int64, idleDays: Double) -> CacheEntry {
            var e = self.entry(name, 0, lastAccessDaysAgo: idleDays)
            (e.apparentBytes, e.allocatedBytes) = (length, blocks)
            return e
        }
        let entries = [
            entry("small-idle-long", length: 100, blocks: 4096, idleDays: 4),
            entry("large-idle-less", length: 5000, blocks: 8192, idleDays: 1)
        ]
        let chromium = SizeRule(
            ratio: 0.9, metric: .apparent, trimsAtLimit: false, stopsStrictlyBelow: false, owner: "Chromium",
            startsAbove: 0.95, byAgeTimesSize: true)
        // 5,100 bytes against a cap of 5,300: above 95 %, down to 4,770: one entry goes.
        let plan = PrunePolicy.plan(entries, rules: PruneRules(maxSize: 5300, now: now), sizeRule: chromium)
        XCTAssertEqual(names(plan), ["large-idle-less"])
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
