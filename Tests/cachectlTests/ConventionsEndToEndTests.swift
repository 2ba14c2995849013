import Foundation
import TestSupport
import XCTest

/// The command line as du, ls and systemd users type it.
final class ConventionsEndToEndTests: XCTestCase {
    private let now = Int(Date().timeIntervalSince1970)

    /// `-h` is human-readable sizes in du, ls and prune; help is `--help`, listed once.
    func testDashHIsHumanReadableAndHelpIsLong() {
        let tree = TestTree("conv-h")
        tree.file("c/a", size: 5000)
        let du = Binary.run(["du", "-sbh", tree.path("c").description])
        XCTAssertEqual(du.status, 0, du.err)
        // -b: apparent sizes (regular files and symlinks, coreutils 9.2's rule), then -h.
        XCTAssertEqual(du.out, "4.9K\t\(tree.path("c").description)\n")
        XCTAssertFalse(du.out.contains("USAGE"), du.out)
        for command in ["du", "ls", "prune"] {
            let help = Binary.run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertEqual(
                help.out.components(separatedBy: "\n  -h,").count - 1, 1, "-h listed once in \(command):\n\(help.out)")
            XCTAssertFalse(help.out.contains("-h, --help"), help.out)
            XCTAssertTrue(help.out.contains("-h, --human-readable"), help.out)
        }
    }

    /// Runs `du FLAGS PATHS` and `cachectl du FLAGS PATHS` alike and checks that cachectl
    /// prints what du prints and exits as it does.
    private func assertMatchesDu(
        _ flags: [String], _ paths: [String], environment: [String: String] = [:], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let ours = Binary.run(["du"] + flags + paths, environment: environment)
        let theirs = Run.command(["du"] + flags + paths, environment: environment)
        XCTAssertEqual(ours.status, theirs.status, "\(flags) \(paths): \(ours.err)", file: file, line: line)
        XCTAssertEqual(ours.out, theirs.out, "\(flags) \(paths)", file: file, line: line)
    }

    /// du's size flags give du's output on the same tree: the last of -b/-h/--si/-k/-m/-B
    /// wins, -b counts apparent sizes, -B takes du's block sizes, clusters like -sxB1 work;
    /// -c adds a total line, -t leaves out small (or, negative, large) sizes, -0 ends lines
    /// with NUL.
    func testDuSizeFlagsMatchGNUDu() {
        let tree = TestTree("conv-du")
        tree.file("c/a/big", size: 3_000_000)
        tree.file("c/small", size: 1234)
        tree.file("d/x", size: 70_000)
        let c = tree.path("c").description
        let d = tree.path("d").description
        for flags in [
            ["-sk"], ["-sm"], ["-sh"], ["-s", "--si"], ["-sB", "1M"], ["-sBM"], ["-s", "-BKB"], ["-s", "-B", "KiB"],
            ["-shk"], ["-sk", "--si"], ["-s", "--block-size=1KB"], ["-sxB1"], ["-sB3"], ["-sck"],
            ["-sk", "-t", "100K"], ["-sk", "-t", "-100K"], ["-sk", "-0"], ["-sPk"], ["-s", "--no-dereference"]
        ] {
            assertMatchesDu(flags, [c, d])
        }
        // --inodes and --time (local time: a zone far from UTC shows it is), as du prints them.
        for flags in [["-s", "--inodes"], ["-sc", "--inodes"], ["-sk", "--time"], ["-sck", "--time"]] {
            let ours = Binary.run(["du"] + flags + [c, d], environment: ["TZ": "Asia/Tokyo"])
            XCTAssertEqual(ours.status, 0, "\(flags): \(ours.err)")
            XCTAssertEqual(
                ours.out, Run.command(["du"] + flags + [c, d], environment: ["TZ": "Asia/Tokyo"]).out, "\(flags)")
        }
        let top = Binary.run(["du", "-sk", "--top", "1", c])
        XCTAssertTrue(top.out.hasPrefix(Run.command(["du", "-sk", c]).out + "\n"), top.out)
        XCTAssertTrue(
            top.out.contains(tree.path("c/a/big").description), "--top lists after the totals with -s: \(top.out)")
        XCTAssertEqual(Binary.run(["du", "-sB", "0", c]).status, 2, "block size 0 is refused, as du does")
        XCTAssertEqual(Binary.run(["du", "-s", "-B", "1.5K", c]).status, 2)
        let depth = Binary.run(["du", "-d1", c])
        XCTAssertEqual(depth.status, 0, depth.err)
        XCTAssertTrue(depth.out.contains(tree.path("c/a").description), depth.out)
        XCTAssertEqual(Binary.run(["du", "--max-depth=1", c]).out, depth.out)
    }

    /// --exclude and -X leave out what du leaves out (names anywhere, path tails, whole
    /// directories), on the same tree.
    func testDuExcludeMatchesGNUDu() {
        let tree = TestTree("conv-exclude")
        tree.file("t/a/node_modules/x/f", size: 50_000)
        tree.file("t/a/k.log", size: 9000)
        tree.file("t/b/build/tmp/t", size: 7000)
        tree.file("t/b/keep", size: 3000)
        tree.file("patterns", contents: Array("*.log\nbuild/tmp\n".utf8))
        let t = tree.path("t").description
        for flags in [
            ["--exclude=node_modules"], ["--exclude=*.log", "--exclude=build/tmp"],
            ["-X", tree.path("patterns").description],
            ["--exclude=a"], ["--exclude", "k.*"]
        ] {
            let ours = Binary.run(["du", "-sB1"] + flags + [t])
            XCTAssertEqual(ours.status, 0, "\(flags): \(ours.err)")
            XCTAssertEqual(ours.out, Run.command(["du", "-sB1"] + flags + [t]).out, "\(flags)")
        }
        XCTAssertNotEqual(
            Binary.run(["du", "-sB1", "--exclude=node_modules", t]).out, Binary.run(["du", "-sB1", t]).out)
    }

    /// A pattern is matched against each argument too, as du matches it (gnulib
    /// `exclude_fnmatch`: the path, then each tail after a slash): an
    /// excluded argument is neither counted nor printed, not even in the total, and a missing
    /// one is no error. Before, every argument was counted and printed whatever the patterns.
    func testAnExcludedArgumentIsLeftOutAsDuLeavesItOut() {
        let tree = TestTree("conv-exclude-argument")
        tree.file("t/a.log", size: 9000)
        tree.file("t/sub/keep", size: 3000)
        tree.file("t/sub/old.log", size: 5000)
        let t = tree.path("t").description
        let lists: [[String]] = [
            ["--exclude=*.log", t + "/a.log", t + "/sub"],
            ["--exclude=sub", t + "/sub", t],
            ["--exclude=t", t, t + "/sub"],
            ["--exclude=sub/keep", t + "/sub/keep", t + "/sub"],
            ["--exclude=missing", tree.path("missing").description, t]
        ]
        for list in lists {
            for flags in [["-sB1"], ["-sck", "--time"], ["-s", "--inodes", "-c"]] {
                assertMatchesDu(flags, list, environment: ["TZ": "UTC"])
            }
        }
    }

    /// `-S` (`--separate-dirs`) leaves each directory's subdirectories out of its figure, as du
    /// does: `-s` lines are each argument's own blocks and direct files (and their times and
    /// inodes), `-c`'s total still counts everything, `--depth` rows are each directory's own.
    /// Before, the option was unknown.
    func testDuSeparateDirsAsDuDoes() throws {
        let tree = TestTree("conv-separate")
        tree.file("t/top", size: 9000)
        tree.file("t/a/inner", size: 50_000)
        tree.file("t/a/deeper/deepest", size: 300_000)
        tree.file("t/b/own", size: 5000)
        tree.setModified("t/a/deeper/deepest", secondsSinceEpoch: 1_700_000_000)
        tree.setModified("t/top", secondsSinceEpoch: 1_500_000_000)
        let paths = ["t", "t/a", "t/b/own"].map { tree.path($0).description }
        for flags in [["-sS"], ["-sSc"], ["-sSk", "--time"], ["-sS", "--inodes", "-c"], ["-sSB1", "--exclude=top"]] {
            assertMatchesDu(flags, paths, environment: ["TZ": "UTC"])
        }
        let t = tree.path("t").description
        for depth in ["0", "1", "5"] {
            let json = Binary.run(["du", "-S", "-d", depth, "--json", t])
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
            let rows = ((object["roots"] as? [[String: Any]])?.first?["subdirectories"] as? [[String: Any]]) ?? []
            let ours = Set(rows.map { "\(($0["allocatedBytes"] as? NSNumber)?.int64Value ?? -1)\t\($0["path"] ?? "")" })
            let theirs = Set(
                Run.command(["du", "-S", "-B1", "-d", depth, t]).out.split(separator: "\n").map(String.init))
            XCTAssertEqual(ours, theirs, "-S -d \(depth)")
        }
        XCTAssertEqual(Binary.run(["du", "-S", t]).status, 2, "the caches view has no -S")
    }

    /// `-l` (`--count-links`) counts a file as often as its hard links are met, and an argument
    /// given again as often as it is given, as du does (ccache's and pnpm's hard-linked
    /// stores). Before, the option was unknown.
    func testDuCountLinksCountsEveryLinkAsDuDoes() {
        let tree = TestTree("conv-count-links")
        tree.file("t/a/big", size: 300_000)
        tree.hardLink("t/a/big", "t/b/big-again")
        tree.hardLink("t/a/big", "u/big-elsewhere")
        tree.file("t/b/own", size: 5000)
        let paths = ["t", "t/b", "u", "t"].map { tree.path($0).description }
        for flags in [["-sl"], ["-slc"], ["-s", "--count-links", "--inodes"], ["-slk", "--exclude=own"], ["-sc"]] {
            assertMatchesDu(flags, paths)
        }
        XCTAssertNotEqual(Binary.run(["du", "-sl"] + paths).out, Binary.run(["du", "-s"] + paths).out)
    }

    /// `--files0-from` measures the paths a NUL-separated list names, as du does (`find -print0
    /// | du --files0-from=- -s`): the last NUL optional, an empty name an error naming its
    /// place (exit 1, the others still measured), names of any bytes, no operand beside it.
    /// Before, the option was unknown.
    func testDuFiles0FromReadsItsListAsDuDoes() {
        let tree = TestTree("conv-files0")
        tree.file("t/a", size: 9000)
        tree.file("t/sub/b", size: 3000)
        tree.file(bytes: Array("t/odd\nname-".utf8) + [0xE9], size: 5000)
        let t = tree.path("t").bytes
        let odd = tree.path("t").bytes + Array("/odd\nname-".utf8) + [0xE9]
        let lists: [(String, [UInt8])] = [
            ("two", t + [0] + t + Array("/sub".utf8) + [0]),
            ("unended", Array(tree.path("t/sub").bytes) + [0] + odd),
            ("empty-name", t + [0, 0] + odd + [0]),
            ("nothing", [])
        ]
        for (name, bytes) in lists {
            tree.file(name, contents: bytes)
            for flags in [["-sB1"], ["-sck"]] {
                let arguments = (flags + ["--files0-from=" + tree.path(name).description]).map { Array($0.utf8) }
                let ours = Binary.runBytes([Array("du".utf8)] + arguments)
                let theirs = Run.bytes([Array("du".utf8)] + arguments)
                XCTAssertEqual(ours.stdout, theirs.stdout, "\(name) \(flags)")
                XCTAssertEqual(ours.status, theirs.status, "\(name) \(flags): \(ours.err)")
            }
            let fromStdin = Run.bytes(
                [Array(Binary.path.utf8), Array("du".utf8), Array("-sB1".utf8), Array("--files0-from=-".utf8)],
                stdin: bytes)
            let duFromStdin = Run.bytes(
                [Array("du".utf8), Array("-sB1".utf8), Array("--files0-from=-".utf8)], stdin: bytes)
            XCTAssertEqual(fromStdin.stdout, duFromStdin.stdout, name)
        }
        XCTAssertTrue(
            Binary.run(["du", "-s", "--files0-from=" + tree.path("two").description]).out.contains("\t"))
        let both = Binary.run(["du", "-s", "--files0-from=" + tree.path("two").description, tree.path("t").description])
        XCTAssertEqual(both.status, 2, both.err)
        XCTAssertTrue(both.err.contains("extra operand"), both.err)
    }

    /// `-X FILE` reads its list as du reads it: through a symlink (a dotfiles link), from
    /// stdin as `-X -`, each line's trailing white space removed (a CRLF file, `*.log  `),
    /// leading white space kept. Before, the symlink was refused (ELOOP) and `-` was a file
    /// name (both exit 2), and `*.log\r` excluded nothing.
    func testDuExcludeFromReadsItsListAsGNUDuDoes() throws {
        let tree = TestTree("conv-exclude-from")
        tree.file("t/a/k.log", size: 9000)
        tree.file("t/a/ k.txt", size: 5000)
        tree.file("t/b/keep", size: 3000)
        tree.file("crlf", contents: Array("*.log  \r\n\n build\r\n".utf8))
        tree.file("leading", contents: Array(" k.txt\n".utf8))
        try FileManager.default.createSymbolicLink(
            atPath: tree.path("linked").description, withDestinationPath: tree.path("crlf").description)
        let t = tree.path("t").description
        for list in ["crlf", "leading", "linked"] {
            let flags = ["-sB1", "-X", tree.path(list).description, t]
            let ours = Binary.run(["du"] + flags)
            XCTAssertEqual(ours.status, 0, "\(list): \(ours.err)")
            XCTAssertEqual(ours.out, Run.command(["du"] + flags).out, list)
        }
        let piped = "printf '*.log\\n' | '\(Binary.path)' du -sB1 -X - '\(t)'"
        let ours = Run.command(["sh", "-c", piped])
        XCTAssertEqual(ours.status, 0, ours.err)
        XCTAssertEqual(ours.out, Run.command(["sh", "-c", "printf '*.log\\n' | du -sB1 -X - '\(t)'"]).out)
        XCTAssertNotEqual(ours.out, Binary.run(["du", "-sB1", t]).out, "the list was read")
    }

    /// `du -s` into a pipe prints what du prints there: 1 KiB blocks by default, or the unit
    /// du's environment asks for (it printed exact bytes, so `cachectl du -s | sort -n` next
    /// to `du -s` disagreed by a factor of 1,024).
    func testDuSummaryIntoAPipeUsesDuDefaultUnit() {
        let tree = TestTree("conv-default-unit")
        tree.file("t/a", size: 50_000)
        tree.sparse("t/b", size: 3_000_000)
        tree.file("t/sub/c", size: 7000)
        let t = tree.path("t").description
        for environment in [
            [:], ["DU_BLOCK_SIZE": "1M"], ["BLOCK_SIZE": "si"], ["POSIXLY_CORRECT": "1"], ["BLOCKSIZE": "KB"],
            ["DU_BLOCK_SIZE": "human-readable", "BLOCK_SIZE": "1"], ["BLOCK_SIZE": "'1"]
        ] {
            let ours = Binary.run(["du", "-s", t, tree.path("t/sub").description], environment: environment)
            let theirs = Run.command(["du", "-s", t, tree.path("t/sub").description], environment: environment)
            XCTAssertEqual(ours.status, 0, ours.err)
            XCTAssertEqual(ours.out, theirs.out, "\(environment)")
        }
        // A flag still wins over the environment, as in du.
        XCTAssertEqual(
            Binary.run(["du", "-sB1", t], environment: ["DU_BLOCK_SIZE": "1M"]).out,
            Run.command(["du", "-sB1", t], environment: ["DU_BLOCK_SIZE": "1M"]).out)
    }

    /// `--time` shows the newest modification of anything counted, directories included, as
    /// du does: a folder whose file was deleted (what a prune does) is newer than every file
    /// left, and an empty folder has its own time. Before, only files counted: the first gave
    /// the newest file's time and the second `-`.
    func testDuTimeCountsDirectoriesAsDuDoes() {
        let tree = TestTree("conv-time")
        tree.file("t/d/f", size: 100)
        tree.setModified("t/d/f", secondsSinceEpoch: 1_577_872_800)  // 2020-01-01 10:00 UTC
        tree.setModified("t/d", secondsSinceEpoch: 1_622_550_840)  // 2021-06-01 12:34 UTC
        tree.setModified("t", secondsSinceEpoch: 1_546_300_800)
        _ = tree.dir("e/empty")
        tree.setModified("e/empty", secondsSinceEpoch: 1_643_767_320)
        tree.setModified("e", secondsSinceEpoch: 1_500_000_000)
        tree.file("x/sub/f", size: 10)
        tree.setModified("x/sub/f", secondsSinceEpoch: 1_400_000_000)
        tree.setModified("x/sub", secondsSinceEpoch: 1_700_000_000)
        tree.setModified("x", secondsSinceEpoch: 1_300_000_000)
        let paths = ["t", "e", "t/d", "x"].map { tree.path($0).description }
        for flags in [["-s", "--time"], ["-sc", "--time"], ["-sk", "--time", "--exclude=f"]] {
            assertMatchesDu(flags, paths, environment: ["TZ": "UTC"])
            let ours = Binary.run(["du"] + flags + paths, environment: ["TZ": "UTC"])
            XCTAssertTrue(ours.out.contains("2021-06-01 12:34"), ours.out)
        }
    }

    /// du reads its numbers with gnulib's `xstrtoumax`/`xstrtoimax` in base 0: `-B 010` is
    /// 8-byte blocks, `0x10` 16, `08` is refused; `1m`, `KD`, `'1K`, `human`, `s` are block
    /// sizes; `-t` takes the same numbers (`1.5K` refused) and `--max-depth` too (`010` is 8).
    /// Each spec gives du's output, or a refusal where du refuses (exit 2 here, 1 in du); the
    /// environment's spec, which du never refuses, gives du's output (`2x` is 2-byte blocks).
    /// Before, `-B 010` and `-t 010` silently meant 10, `-B 08` 8, and 26 of these were refused.
    func testDuReadsItsNumbersAsGNUDuReadsThem() {
        let tree = TestTree("conv-numbers")
        tree.file("t/a", size: 50_000)
        tree.sparse("t/b", size: 3_000_000)
        tree.file("t/sub/c", size: 7000)
        tree.file("t/sub/deeper/d", size: 300)
        let paths = [tree.path("t").description, tree.path("t/sub").description]
        func compare(_ flags: [String], environment: [String: String] = [:]) {
            let ours = Binary.run(["du"] + flags + paths, environment: environment)
            let theirs = Run.command(["du"] + flags + paths, environment: environment)
            if theirs.status == 0 {
                XCTAssertEqual(ours.status, 0, "\(flags) \(environment): \(ours.err)")
                XCTAssertEqual(ours.out, theirs.out, "\(flags) \(environment)")
            } else {
                XCTAssertEqual(ours.status, 2, "\(flags): du refuses it (\(theirs.err)); ours: \(ours.out)")
            }
        }
        let blockSizes = [
            "010", "0x10", "0X1K", "017K", "08", "1m", "m", "1g", "kB", "KD", "1KD", "kiB", "1kiB", "'1K", "'M",
            "human-readable", "human", "h", "si", "s", " 2", "+1K", "1Kb", "1b", "1c", "1w", "B", "1E", "E", "1Z",
            "1R", "0", "00", "0x", "1.5K", "1e3", "99999999999999999999", "", "'", "1t", "T", "PB", "MiB", "3"
        ]
        for spec in blockSizes {
            compare(["-s", "-B", spec])
            compare(["-s"], environment: ["DU_BLOCK_SIZE": spec, "BLOCKSIZE": "512"])
        }
        for threshold in [
            "010", "0x10", "1m", "1k", "1KD", "08", "-0", " -0", "-010", " 8", "+8", "1.5K", "1b", "1g", "1G", "9E",
            "'8", "1e3", "-1m", "8K", "-8K", "0x2000", "020000", "-0x3000", "-9223372036854775808"
        ] {
            compare(["-s", "-B1", "-t", threshold])
        }
        // The depth view is a table: each depth gives what du's reading of it gives.
        for (depth, read) in [("010", "8"), ("0x1", "1"), ("+1", "1"), (" 1", "1"), ("00", "0")] {
            XCTAssertEqual(
                Run.command(["du", "--max-depth=" + depth] + paths).out,
                Run.command(["du", "--max-depth=" + read] + paths).out, "du reads \(depth) as \(read)")
            let ours = Binary.run(["du", "--max-depth=" + depth] + paths)
            XCTAssertEqual(ours.status, 0, ours.err)
            XCTAssertEqual(ours.out, Binary.run(["du", "--max-depth=" + read] + paths).out, depth)
        }
        for depth in ["08", "-1", "-0", "1k", ""] {
            XCTAssertNotEqual(Run.command(["du", "--max-depth=" + depth] + paths).status, 0, depth)
            let ours = Binary.run(["du", "--max-depth=" + depth] + paths)
            XCTAssertEqual(ours.status, 2, "--max-depth=\(depth): \(ours.out)")
        }
    }

    /// `-a` lists files as well as directories with du -a's sizes, to `--max-depth` levels when
    /// given (the rows of `du -a -B1`, the same set, in a table); `-sa` is refused as du does.
    func testDuAllListsWhatDuALists() throws {
        let tree = TestTree("conv-all")
        tree.file("t/a/one", size: 50_000)
        tree.file("t/a/deep/two", size: 9000)
        tree.sparse("t/b/sparse", size: 5_000_000)
        tree.file("t/three", size: 3000)
        tree.symlink("three", at: "t/link")
        tree.dir("t/empty")
        let t = tree.path("t").description
        /// `size path` of every row but the total line, as a set.
        func rows(_ text: String, table: Bool) -> Set<String> {
            Set(
                text.split(separator: "\n").dropFirst(table ? 1 : 0).compactMap { line -> String? in
                    if table {
                        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                        guard fields.count >= 6, fields[5] != "total" else { return nil }
                        return "\(fields[0]) \(fields[5...].joined(separator: " "))"
                    }
                    let parts = line.split(separator: "\t", maxSplits: 1)
                    return "\(parts[0]) \(parts[1])"
                })
        }
        for depth in [[], ["-d1"], ["--max-depth", "2"], ["-d0"]] {
            let ours = Binary.run(["du", "-a", "-B1"] + depth + [t])
            XCTAssertEqual(ours.status, 0, ours.err)
            let theirs = Run.command(["du", "-a", "-B1"] + depth + [t])
            XCTAssertEqual(
                rows(ours.out, table: true), rows(theirs.out, table: false),
                "\(depth)\nours:\n\(ours.out)\ndu:\n\(theirs.out)")
        }
        XCTAssertTrue(Binary.run(["du", "-a", t]).out.contains("\(t)/a/deep/two\n"))
        XCTAssertFalse(Binary.run(["du", "-d1", t]).out.contains("\(t)/three\n"), "files only with -a")
        let json = Binary.run(["du", "--json", "-a", "-d1", t])
        let root = try XCTUnwrap(
            ((JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])?["roots"] as? [[String: Any]])?
                .first)
        XCTAssertEqual(
            Set((root["allFiles"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }),
            [t + "/three", t + "/link"])
        let both = Binary.run(["du", "-sa", t])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.err.contains("-a/--all and -s/--summarize cannot be combined"), both.err)
    }

    /// An argument with repeated trailing slashes prints as du prints it (one slash), and its
    /// children as `dir/child`, never `dir//child`.
    func testTrailingSlashesPrintAsDuPrintsThem() {
        let tree = TestTree("conv-slashes")
        tree.file("t/sub/f", size: 5000)
        let t = tree.path("t").description
        XCTAssertEqual(Binary.run(["du", "-sB1", t + "//"]).out, Run.command(["du", "-sB1", t + "//"]).out)
        let depth = Binary.run(["du", "-B1", "-d1", t + "///"]).out
        XCTAssertTrue(depth.contains(" \(t)/sub\n") && depth.contains(" \(t)/\n"), depth)
        XCTAssertFalse(depth.contains("//"), depth)
    }

    /// systemd's time spans, case-sensitive: `1M` is a month (it was read as a minute, and a
    /// scheduled prune with it deleted everything older than a minute).
    func testMaxAgeUsesSystemdTimeSpans() {
        let tree = TestTree("conv-age")
        for (name, days) in [("young", 2), ("middle", 20), ("old", 40)] {
            tree.file("c/\(name)", size: 100)
            tree.setModified("c/\(name)", secondsSinceEpoch: now - days * 86_400)
        }
        let root = tree.path("c").description
        let month = Binary.run(["prune", root, "--format", "plain", "--max-age", "1M"])
        XCTAssertEqual(month.status, 0, month.err)
        XCTAssertEqual(survivors(root), ["middle", "young"], "only what is older than a month (30.44 days) goes")
        let spaced = Binary.run(["prune", root, "--format", "plain", "--max-age", "1 week 3 days"])
        XCTAssertEqual(spaced.status, 0, spaced.err)
        XCTAssertEqual(survivors(root), ["young"])
        for invalid in ["1D", "2H", "5x", "-1d", "1."] {
            let run = Binary.run(["prune", root, "--format", "plain", "--max-age=" + invalid])
            XCTAssertEqual(run.status, 2, invalid)
            XCTAssertTrue(run.err.contains("systemd time span"), run.err)
        }
        XCTAssertEqual(survivors(root), ["young"], "a refused unit deletes nothing")
    }

    /// A size cap without a unit below 4 KiB is a forgotten unit, not a wish to delete
    /// everything: refused (exit 2, nothing deleted) unless spelled in bytes.
    func testUnitlessTinyMaxSizeIsRefused() {
        let tree = TestTree("conv-size")
        tree.file("c/a", size: 5000)
        tree.file("c/b", size: 5000)
        let root = tree.path("c").description
        for cap in ["1", "0.5", "0", "4095"] {
            let run = Binary.run(["prune", root, "--format", "plain", "--max-size", cap])
            XCTAssertEqual(run.status, 2, cap)
            XCTAssertTrue(run.err.contains("no unit"), run.err)
        }
        XCTAssertEqual(
            Binary.run(["prune", root, "--format", "plain", "--trim-to", "0x1", "--max-size", "1G"]).status, 2,
            "--trim-to 0x1 is not a fraction (Double() reads it as 1)")
        XCTAssertEqual(survivors(root), ["a", "b"])
        let explicit = Binary.run(["prune", root, "--format", "plain", "--max-size", "0B"])
        XCTAssertEqual(explicit.status, 0, explicit.err)
        XCTAssertEqual(survivors(root), [])
    }

    /// A negative value given apart (`-d -1`, `--jobs -1`) is the option's value, refused by
    /// the option's own rule and message, as du refuses `-d -1` ("invalid maximum depth");
    /// it was read as another option ("Missing value for '-d'"). Nothing is done.
    func testANegativeValueIsTheOptionsValueAndRefusedInItsWords() {
        let tree = TestTree("conv-negative")
        tree.file("c/a", size: 5000)
        let root = tree.path("c").description
        let cases: [([String], String)] = [
            (["du", "-d", "-1", root], "invalid maximum depth '-1'"),
            (["du", "-s", "-B", "-1", root], "invalid --block-size argument '-1'"),
            (["du", "--top", "-1", root], "--top must be 0 or more"),
            (["prune", root, "--format", "plain", "--max-size", "-1"], "'-1' is not a size"),
            (["prune", root, "--format", "plain", "--max-age", "-1d"], "'-1d' is not a systemd time span"),
            (["prune", root, "--format", "plain", "--max-size", "1G", "--trim-to", "-1"], "greater than 0"),
            (["prune", root, "--format", "plain", "--grace", "-1h"], "'-1h' is not a systemd time span"),
            (["fetch", "--jobs", "-1", "http://127.0.0.1:9/"], "--jobs must be at least 1"),
            (["fetch", "--retry", "-1", "http://127.0.0.1:9/"], "--retry must be 0 or more"),
            (["fetch", "--timeout", "-1s", "http://127.0.0.1:9/"], "'-1s' is not a systemd time span"),
            (["fetch", "--max-body", "-1", "http://127.0.0.1:9/"], "'-1' is not a size"),
            (["fetch", "--expires", "-1d", "http://127.0.0.1:9/"], "'-1d' is not a systemd time span"),
            (["localize", "--jobs", "-1", "--fetch", "x.html"], "--jobs must be at least 1"),
            (["put", "http://a.example/", root + "/a", "--expires", "-1d"], "'-1d' is not a systemd time span")
        ]
        for (arguments, message) in cases {
            let run = Binary.run(arguments)
            XCTAssertEqual(run.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(run.err.contains(message), arguments.joined(separator: " ") + ": " + run.err)
        }
        XCTAssertEqual(survivors(root), ["a"])
    }

    /// Without /proc (a container, a chroot, a mount namespace that hides it) the binary
    /// still reads its arguments and works, as du does: it trapped (SIGILL) at start-up,
    /// because Swift's `CommandLine` reads /proc/self/cmdline on Linux.
    func testWorksWithoutProc() throws {
        guard Run.command(["unshare", "-m", "--propagation", "private", "true"]).status == 0 else {
            throw XCTSkip("cannot make a mount namespace here (needs root)")
        }
        let tree = TestTree("conv-noproc")
        tree.file("c/a", size: 5000)
        tree.file("c/b/x", size: 70_000)
        let c = tree.path("c").description
        func withoutProc(_ args: [String]) -> RunResult {
            let quoted = ([Binary.path] + args).map { "'" + $0 + "'" }.joined(separator: " ")
            return Run.command(["unshare", "-m", "--propagation", "private", "sh", "-c", "umount -l /proc && " + quoted]
            )
        }
        let du = withoutProc(["du", "-sk", c])
        XCTAssertEqual(du.status, 0, du.err)
        XCTAssertEqual(du.out, Run.command(["du", "-sk", c]).out)
        let version = withoutProc(["--version"])
        XCTAssertEqual(version.status, 0, version.err)
        let prune = withoutProc(["prune", c, "--format", "plain", "--max-size", "8K", "--dry-run"])
        XCTAssertEqual(prune.status, 0, prune.err)
    }

    /// A modification time gmtime cannot express (tmpfs keeps 64-bit times) prints as its raw
    /// seconds, as du --time does, not as a negative year and day 00; JSON's ISO 8601 dates
    /// keep four-digit years and say raw seconds beyond.
    func testDatesPastGmtimePrintRawSeconds() throws {
        let dir = "/dev/shm/cachectl-test-future-\(getpid())"
        defer { _ = Run.command(["rm", "-rf", dir]) }
        _ = Run.command(["mkdir", "-p", dir])
        guard Run.command(["touch", "-d", "@67768036191676800", dir + "/f"]).status == 0 else {
            throw XCTSkip("no tmpfs with 64-bit times at /dev/shm")
        }
        let table = Binary.run(["du", dir])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.contains("67768036191676800  67768036191676800"), table.out)
        XCTAssertFalse(table.out.contains("-01-00"), table.out)
        XCTAssertTrue(Run.command(["du", "--time", dir]).out.contains("67768036191676800"), "du prints the seconds too")
        _ = Run.command(["touch", "-d", "@6918986100000000", dir + "/f"])
        let json = Binary.run(["du", "--json", dir])
        let roots =
            (try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])?["roots"] as? [[String: Any]]
        XCTAssertEqual(roots?.first?["newestModification"] as? String, "6918986100000000", json.out)
    }

    /// Every command's help ends with EXAMPLES, and no default is printed twice.
    func testHelpEndsWithExamplesAndDefaultsOnce() {
        for command in ["du", "prune", "localize", "fetch", "ls", "put", "cat", "rm", "clear", "unpin", "schedule"] {
            let help = Binary.run([command, "--help"])
            XCTAssertEqual(help.status, 0, command)
            let sections = help.out.components(separatedBy: "\nEXAMPLES:\n")
            XCTAssertEqual(sections.count, 2, "\(command) --help has EXAMPLES:\n\(help.out)")
            XCTAssertTrue(sections.last?.contains("cachectl \(command)") ?? false, help.out)
            XCTAssertFalse(
                sections.last?.contains(" --") == true && sections.last?.contains("OPTIONS") == true, "EXAMPLES is last"
            )
            for line in help.out.split(separator: "\n") where line.contains("(default: ") {
                XCTAssertFalse(
                    line.lowercased().replacingOccurrences(of: "(default: ", with: "").contains("(default"),
                    "\(command): \(line)")
            }
            let flat = help.out.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
            XCTAssertNil(
                flat.range(of: #"\(default [^:)]*\)\. *\(default:"#, options: .regularExpression),
                "\(command) prints a default twice")
        }
    }

    /// bash completion keeps path completion for path arguments and lists --format and
    /// --state values (it offered nothing for `cachectl du /tmp/u<Tab>`).
    func testBashCompletionCompletesPathsAndValues() throws {
        let tree = TestTree("conv-complete")
        tree.dir("unique-folder")
        let script = Binary.run(["--generate-completion-script", "bash"])
        XCTAssertEqual(script.status, 0)
        tree.file("cachectl.bash", contents: script.stdout)
        let driver = """
            source "$1"
            COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _cachectl cachectl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """
        func complete(_ line: String) -> [String] {
            Run.command(["bash", "-c", driver, "bash", tree.path("cachectl.bash").description, line]).out
                .split(separator: "\n").map(String.init)
        }
        let prefix = tree.path("unique-f").description
        XCTAssertEqual(complete("cachectl du " + prefix), [tree.path("unique-folder").description])
        XCTAssertEqual(complete("cachectl prune " + prefix), [tree.path("unique-folder").description])
        XCTAssertEqual(complete("cachectl ls --state ex"), ["expired"])
        XCTAssertEqual(complete("cachectl prune --format pi"), ["pincache", "pip"])
    }

    /// prune's report counts in words ("1 entry"), names the rules as the user gave them,
    /// and ends with a total line; ls ends with a total and shows an expiry's time when near.
    func testPruneAndLsReportsInWords() {
        let tree = TestTree("conv-report")
        for (i, days) in [10, 20, 30, 40].enumerated() {
            tree.file("c/f\(i)", size: 300_000)
            tree.setModified("c/f\(i)", secondsSinceEpoch: now - days * 86_400)
        }
        let root = tree.path("c").description
        let dry = Binary.run([
            "prune", root, "--format", "plain", "--max-size", "600K", "--max-age", "35d", "-h", "--dry-run"
        ])
        XCTAssertEqual(dry.status, 0, dry.err)
        for expected in [
            "expired (by the cache's own rule, or older than --max-age 35d)", "size (over --max-size 600K)",
            "after    1 entry, 296K", "(older than --max-age 35d)", "(least recently used, over --max-size 600K)",
            "would free 888K in 3 entries from 1 cache"
        ] {
            XCTAssertTrue(dry.out.contains(expected), "\(expected)\n\(dry.out)")
        }
        let run = Binary.run(["prune", root, "--format", "plain", "--max-size", "600K", "--max-age", "35d", "-h"])
        XCTAssertTrue(run.out.hasSuffix("\nfreed 888K in 3 entries from 1 cache\n"), run.out)
        let store = tree.path("store").description
        tree.file("body", size: 10)
        XCTAssertEqual(
            Binary.run([
                "put", "https://x.example/a", tree.path("body").description, "--cache", store, "--expires", "2h"
            ]).status, 0)
        let ls = Binary.run(["ls", store, "-b"])
        XCTAssertTrue(ls.out.hasSuffix("total: 1 entry, 4096\n"), ls.out)
        XCTAssertNotNil(
            ls.out.range(of: #"\d{4}-\d\d-\d\d \d\d:\d\d  https://x.example/a"#, options: .regularExpression),
            "an expiry two hours away shows its time: \(ls.out)")
        let json = Binary.run(["ls", store, "--json"])
        XCTAssertTrue(json.out.contains("\"contentType\"") && json.out.contains("\"etag\""), json.out)
    }

    /// A path that is not there reads the same in every command, as du says it.
    func testAMissingPathIsWordedTheSameEverywhere() {
        let tree = TestTree("conv-missing")
        let missing = tree.path("absent").description
        let expected = "cachectl: cannot access '\(missing)': No such file or directory\n"
        for args in [
            ["du", "-s", missing], ["ls", missing], ["prune", missing, "--max-size", "1G"], ["clear", missing],
            ["localize", missing], ["put", "https://x.example/a", missing, "--cache", tree.path("store").description]
        ] {
            let run = Binary.run(args)
            XCTAssertEqual(run.status, 1, "\(args)")
            XCTAssertTrue(run.err.hasSuffix(expected), "\(args): \(run.err)")
        }
    }

    private func survivors(_ root: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
    }
}
