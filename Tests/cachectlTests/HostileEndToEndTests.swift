import Foundation
import TestSupport
import XCTest

/// The hostile suite (`Tests/Hostile/hostile.py`) against the built binary: symlink swaps of
/// a directory and of the root mid-run (stopped at a named moment, and free-running), bind
/// mounts and tmpfs under the root and under `objects/` (in a private mount namespace), plist
/// roots spelled `.`, through a symlink, with `..` and not in UTF-8, concurrent writers and
/// prunes, SIGKILL at random moments, a full disk, a read-only mount, a tag planted by
/// `nobody`, dry runs, hostile environment roots and file names. Each attack runs with the
/// kernel's openat2 and with the component-by-component fallback; afterwards nothing outside
/// the root may have changed and every row's body must exist with its recorded size and hash.
/// Attacks that need mounts or another user run as root (CI is); elsewhere they are skipped
/// with a message.
final class HostileEndToEndTests: XCTestCase {
    private func attack(_ scenario: String, trials: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws
    {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Hostile/hostile.py").path
        let result = Run.command(["python3", script, scenario, "--bin", Binary.path, "--trials", String(trials)])
        if result.status == 77 {
            throw XCTSkip("hostile suite '\(scenario)' needs root (mount namespaces, setpriv): \(result.out)")
        }
        XCTAssertEqual(result.status, 0, "\(scenario):\n\(result.out)\n\(result.err)", file: file, line: line)
        // What ran, for the log.
        print(result.out)
    }

    func testDirectorySwappedForASymlinkDuringPruneAndClear() throws { try attack("swap-directory") }
    func testRootSwappedForASymlinkOnceChecked() throws { try attack("swap-root") }
    func testBindMountsAndTmpfsInsideTheRootAreNeverCrossed() throws { try attack("bind-mounts") }
    func testPlistRootsSpelledDotSymlinkDotDotAndNotUTF8() throws { try attack("plist-roots") }
    func testConcurrentPutsFetchesAndPrunesKeepTheStoreConsistent() throws {
        try attack("concurrent-writers", trials: 2)
    }
    func testSIGKILLAtRandomMomentsKeepsTheStoreConsistent() throws { try attack("sigkill", trials: 2) }
    func testFullDiskStillListsReadsAndFreesSpace() throws { try attack("full-disk") }
    func testReadOnlyStoreIsReadAndSaysReadOnly() throws { try attack("read-only") }
    func testTagOrIndexPlantedByAnotherUserIsNotTrusted() throws { try attack("planted-tag") }
    func testFilesAndRowsChangedAfterThePlanAreKept() throws { try attack("changed-since-inspected") }
    func testDryRunsChangeNoByteAndNoTimestamp() throws { try attack("dry-run-inert") }
    func testXDGCacheHomeOfRootOrHomeIsNotACacheRoot() throws { try attack("environment-roots") }
    func testGraceFromTheBodysLastWriteAndForeignIndexRefused() throws { try attack("grace-and-foreign-index") }
    func testControlCharactersInNamesNeverReachTheTerminalRaw() throws { try attack("escapes") }
    func testTreesThousandsOfLevelsDeepAreListedPrunedAndCleared() throws { try attack("deep-tree") }
}
