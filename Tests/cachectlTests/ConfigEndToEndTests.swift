import CacheKitSystem
import Foundation
import TestSupport
import XCTest

/// The prune policy in a TOML file: tables per path or glob, applied by a plain
/// `cachectl prune`, checked with line numbers by `cachectl config check`.
final class ConfigEndToEndTests: XCTestCase {
    private let now = Int(Date().timeIntervalSince1970)

    func testPlainPruneAppliesEveryTableOfTheUserConfiguration() {
        let tree = TestTree("config-apply")
        for (i, days) in [10, 20, 30, 40].enumerated() {
            tree.file("home/.cache/app1/f\(i)", size: 300_000)
            tree.setModified("home/.cache/app1/f\(i)", secondsSinceEpoch: now - days * 86_400)
            tree.file("home/.cache/app2/f\(i)", size: 300_000)
            tree.setModified("home/.cache/app2/f\(i)", secondsSinceEpoch: now - days * 86_400)
        }
        tree.file("home/.cache/other/keep", size: 300_000)
        tree.setModified("home/.cache/other/keep", secondsSinceEpoch: now - 400 * 86_400)
        tree.file(
            "xdg/cachectl/config.toml",
            contents: Array(
                """
                # Every app cache: a month at most (systemd's 1M), then 600 KiB trimmed to half.
                ["~/.cache/app*"]
                max-age = "1M"
                max-size = "600K"
                trim-to = 0.5
                format = "plain"

                ["~/.cache/absent"]
                max-size = "1G"
                """.utf8))
        let env = [
            "HOME": tree.path("home").description, "XDG_CONFIG_HOME": tree.path("xdg").description,
            "XDG_CACHE_HOME": tree.path("home/.cache").description
        ]
        let check = Binary.run(["config", "check"], environment: env)
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(
            check.out.contains(
                "[~/.cache/app*] line 2: max-size 600K, max-age 2629800s, trim-to 0.5, format plain; 2 directories"),
            check.out)
        let run = Binary.run(["prune"], environment: env)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("[~/.cache/absent]: no such cache directory; skipped"), run.err)
        // 40 days is past a month; of the rest (10, 20, 30 days, 900 KiB) the oldest go down to 300 KiB.
        for app in ["app1", "app2"] {
            let left =
                (try? FileManager.default.contentsOfDirectory(atPath: tree.path("home/.cache/\(app)").description))
                ?? []
            XCTAssertEqual(left.sorted(), ["f0"], app)
        }
        XCTAssertTrue(tree.path("home/.cache/other/keep").exists, "a cache no table names is not touched")
        // Named roots or rules on the command line win over the file.
        tree.file("home/.cache/app1/new", size: 300_000)
        XCTAssertEqual(
            Binary.run(
                ["prune", tree.path("home/.cache/app1").description, "--format", "plain", "--max-size", "10G"],
                environment: env
            ).status, 0)
        XCTAssertTrue(tree.path("home/.cache/app1/new").exists)
    }

    /// A configuration file kept elsewhere and symlinked into place (as dotfile managers
    /// do) is read through its link (it was refused: "Too many levels of symbolic links").
    func testASymlinkedConfigurationIsRead() {
        let tree = TestTree("config-link")
        tree.file("dotfiles/cachectl.toml", contents: Array("[\"~/.cache/app\"]\nmax-size = \"1G\"\n".utf8))
        tree.dir("xdg/cachectl")
        tree.symlink(tree.path("dotfiles/cachectl.toml").description, at: "xdg/cachectl/config.toml")
        let check = Binary.run(
            ["config", "check"],
            environment: ["HOME": tree.path("home").description, "XDG_CONFIG_HOME": tree.path("xdg").description])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("[~/.cache/app] line 1: max-size 1.0G"), check.out)
    }

    func testCheckReportsEveryProblemWithItsLine() {
        let tree = TestTree("config-check")
        tree.file(
            "bad.toml",
            contents: Array(
                """
                ["/tmp/x"]
                max-size = "1"
                max-age = "1D"

                [relative]
                max-size = "1G"

                ["/tmp/y/*"]
                maxsize = "1G"
                trim-to = 2
                """.utf8))
        let run = Binary.run(["config", "check", tree.path("bad.toml").description])
        XCTAssertEqual(run.status, 1)
        let file = tree.path("bad.toml").description
        for expected in [
            "\(file):2: [/tmp/x] max-size: '1' has no unit", "\(file):3: [/tmp/x] max-age: a systemd time span",
            "\(file):5: 'relative': a cache is an absolute path", "\(file):9: [/tmp/y/*] maxsize: unknown key",
            "\(file):10: [/tmp/y/*] trim-to: a number greater than 0"
        ] {
            XCTAssertTrue(run.err.contains(expected), "\(expected)\n\(run.err)")
        }
        tree.file("syntax.toml", contents: Array("[\"/x\"\nmax-size = \"1G\"\n".utf8))
        let syntax = Binary.run(["config", "check", tree.path("syntax.toml").description])
        XCTAssertEqual(syntax.status, 1)
        XCTAssertTrue(syntax.err.hasPrefix(tree.path("syntax.toml").description + ":1: "), syntax.err)
        // prune refuses a bad file before deleting anything.
        let prune = Binary.run(["prune", "--config-file", tree.path("bad.toml").description])
        XCTAssertEqual(prune.status, 2, prune.err)
    }

    /// Numbers past Int64 from the command line, a configuration file and a textfile left by an
    /// earlier run are held at the range's end: each conversion trapped (SIGILL) before.
    func testNumbersPastTheIntegerRangeStopNothing() {
        let tree = TestTree("huge-numbers")
        tree.file(
            "huge.toml",
            contents: Array("[\"/tmp/x\"]\nmax-age = \"10000000000000000000\"\ngrace = \"10000000000000000000\"\n".utf8)
        )
        let check = Binary.run(["config", "check", tree.path("huge.toml").description])
        XCTAssertLessThan(check.status, 128, check.err)
        XCTAssertTrue(check.out.contains("max-age 9223372036854775807s"), check.out + check.err)
        // Port 1: nothing listens; the timeout is converted before connecting.
        let fetch = Binary.run([
            "fetch", "--timeout", "10000000000000000", "--cache", tree.path("store").description,
            "http://127.0.0.1:1/x"
        ])
        XCTAssertEqual(fetch.status, 1, fetch.err)
        tree.file("cache/f", size: 10)
        tree.file(
            "textfiles/cachectl_prune.prom",
            contents: Array("cachectl_prune_runs_total{cache=\"\(tree.path("cache").description)\"} 1e300\n".utf8))
        let prune = Binary.run([
            "prune", tree.path("cache").description, "--format", "plain", "--max-size", "1G", "--textfile-dir",
            tree.path("textfiles").description
        ])
        XCTAssertEqual(prune.status, 0, prune.err)
    }
}
