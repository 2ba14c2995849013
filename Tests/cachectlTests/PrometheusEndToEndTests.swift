import CacheKitSystem
import Foundation
import TestSupport
import XCTest

/// `--prometheus` and `--textfile-dir`: node_exporter's textfile format, checked by promtool
/// (Debian's prometheus package, installed by Scripts/test-deps).
final class PrometheusEndToEndTests: XCTestCase {
    private func promtool(_ file: String) throws -> RunResult {
        guard Run.command(["sh", "-c", "command -v promtool"]).status == 0 else {
            throw XCTSkip("promtool is missing: Scripts/test-deps installs it (Debian's prometheus package)")
        }
        return Run.command(["sh", "-c", "promtool check metrics < '\(file)'"])
    }

    func testDuWritesATextfileByStateThatPromtoolAccepts() throws {
        let tree = TestTree("prom-du")
        let store = tree.path("caches/store").description
        tree.file("body", contents: Array("hello".utf8))
        XCTAssertEqual(
            Binary.run(["put", "https://x.example/a", tree.path("body").description, "--cache", store]).status, 0)
        XCTAssertEqual(
            Binary.run([
                "put", "https://x.example/b", tree.path("body").description, "--cache", store, "--expires", "0s"
            ]).status, 0)
        tree.file("caches/other/f", size: 10_000)
        let textfiles = tree.dir("textfiles").description
        let run = Binary.run(["du", tree.path("caches").description, "--textfile-dir", textfiles])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("total"), "the report still prints")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: textfiles), ["cachectl_du.prom"],
            "no temporary file left")
        let file = textfiles + "/cachectl_du.prom"
        let text = String(decoding: try FileIOProbe.read(RawPath(file)), as: UTF8.self)
        XCTAssertTrue(
            text.contains("cachectl_cache_bytes{cache=\"\(store)\",format=\"native\",state=\"fresh\"} "), text)
        XCTAssertTrue(
            text.contains("cachectl_cache_entries{cache=\"\(store)\",format=\"native\",state=\"expired\"} 1"), text)
        XCTAssertTrue(
            text.contains(
                "cachectl_cache_bytes{cache=\"\(tree.path("caches/other").description)\","
                    + "format=\"unknown\",state=\"unknown\"} 16384"
            ), text)
        XCTAssertTrue(text.contains("cachectl_du_last_run_timestamp_seconds "), text)
        let check = try promtool(file)
        XCTAssertEqual(check.status, 0, check.out + check.err)
        // On stdout instead of the report.
        let stdout = Binary.run(["du", "--prometheus", tree.path("caches").description])
        XCTAssertEqual(stdout.status, 0, stdout.err)
        XCTAssertTrue(stdout.out.hasPrefix("# HELP cachectl_cache_bytes"), stdout.out)
        XCTAssertEqual(Binary.run(["du", "-s", "--prometheus", tree.path("caches").description]).status, 2)
    }

    /// prune's counters add up across runs (the textfile is their memory), per cache and reason.
    func testPruneCountersAccumulateAcrossRuns() throws {
        let tree = TestTree("prom-prune")
        let root = tree.path("c").description
        let textfiles = tree.dir("textfiles").description
        let now = Int(Date().timeIntervalSince1970)
        func fill() {
            for i in 0..<4 {
                tree.file("c/f\(i)", size: 8192)
                tree.setModified("c/f\(i)", secondsSinceEpoch: now - (i + 1) * 86_400)
            }
        }
        fill()
        let first = Binary.run([
            "prune", root, "--format", "plain", "--max-size", "20K", "--trim-to", "0.5", "--textfile-dir", textfiles
        ])
        XCTAssertEqual(first.status, 0, first.err)
        fill()
        let second = Binary.run([
            "prune", root, "--format", "plain", "--max-size", "20K", "--trim-to", "0.5", "--textfile-dir", textfiles
        ])
        XCTAssertEqual(second.status, 0, second.err)
        let file = textfiles + "/cachectl_prune.prom"
        let text = String(decoding: try FileIOProbe.read(RawPath(file)), as: UTF8.self)
        // Each run deletes 3 of the 4 files (8 KiB each) to get to 10K: 6 entries, 48 KiB in all.
        XCTAssertTrue(text.contains("cachectl_prune_freed_bytes_total{cache=\"\(root)\"} 49152"), text)
        XCTAssertTrue(text.contains("cachectl_prune_deleted_entries_total{cache=\"\(root)\",reason=\"size\"} 6"), text)
        XCTAssertTrue(text.contains("cachectl_prune_runs_total{cache=\"\(root)\"} 2"), text)
        XCTAssertTrue(text.contains("cachectl_prune_last_run_success 1"), text)
        let check = try promtool(file)
        XCTAssertEqual(check.status, 0, check.out + check.err)
        XCTAssertEqual(Binary.run(["prune", root, "--dry-run", "--prometheus"]).status, 2)
    }
}
