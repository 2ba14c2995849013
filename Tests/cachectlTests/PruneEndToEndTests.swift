import CacheKit
import Foundation
import TestSupport
import XCTest

final class PruneEndToEndTests: XCTestCase {
    let now = Int(FileTime.now.timeInterval)

    /// Records every entry below `dir` so that any later read or write shows: contents are
    /// hashed first, then every access time is set two days back (so a read would move it,
    /// even under relatime), then lstat alone (no reads) gives size, mtime, atime, ctime.
    /// `check` compares lstat of the same paths, then the listing and the hashes.
    private func freeze(_ dir: RawPath) -> String {
        let r = Oracle.python(Self.fingerprintScript, ["freeze", dir.description])
        XCTAssertEqual(r.status, 0, r.err)
        return r.out
    }

    private func check(_ dir: RawPath, _ frozen: String) -> String {
        let r = Run.bytes(
            [
                Array("python3".utf8), Array("-c".utf8), Array(Self.fingerprintScript.utf8), Array("check".utf8),
                dir.bytes
            ],
            stdin: Array(frozen.utf8))
        return r.out + r.err
    }

    static let fingerprintScript = """
        import hashlib, json, os, sys, time
        mode, root = sys.argv[1], sys.argv[2]
        def listing():
            out = [root]
            for d, dirs, files in os.walk(root):
                out += [os.path.join(d, n) for n in dirs + files]
            return sorted(out)
        def hashes(paths):
            return {p: hashlib.sha256(open(p, 'rb').read()).hexdigest() for p in paths if os.path.isfile(p) and not \
        os.path.islink(p)}
        def stats(paths):
            return {p: [s.st_size, s.st_mtime_ns, s.st_atime_ns, s.st_ctime_ns] for p in paths for s in [os.lstat(p)]}
        if mode == 'freeze':
            paths = listing(); h = hashes(paths)
            old = time.time_ns() - 2 * 86400 * 10**9
            for p in paths:
                s = os.lstat(p); os.utime(p, ns=(old, s.st_mtime_ns), follow_symlinks=False)
            print(json.dumps({'paths': paths, 'hashes': h, 'stats': stats(paths)}))
        else:
            frozen = json.load(sys.stdin)
            now = stats(frozen['paths'])
            for p in frozen['paths']:
                if now[p] != frozen['stats'][p]: print('changed', p, frozen['stats'][p], now[p])
            paths = listing()
            if paths != frozen['paths']: print('listing changed', sorted(set(paths) ^ set(frozen['paths'])))
            if hashes(paths) != frozen['hashes']: print('contents changed')
        """

    private func survivors(_ dir: RawPath) -> [String] {
        Run.command(["sh", "-c", "cd '\(dir.description)' && find . ! -type d | sort"]).out.split(separator: "\n").map(
            String.init)
    }

    private func plainFixture(_ tree: TestTree) -> RawPath {
        for i in 1...10 {
            tree.file("c/sub\(i % 2)/f\(i)", size: i * 5000)
            tree.setModified("c/sub\(i % 2)/f\(i)", secondsSinceEpoch: now - i * 86_400)
        }
        tree.file("c/old.part", size: 100)
        tree.setModified("c/old.part", secondsSinceEpoch: now - 7200)
        tree.file("c/young.part", size: 100)
        tree.file("c/broken.png", contents: Images.truncated(Images.png))
        tree.setModified("c/broken.png", secondsSinceEpoch: now - 7200)  // past the grace period
        return tree.path("c")
    }

    func testPlainCacheExactSurvivors() {
        let tree = TestTree("prune-plain")
        let root = plainFixture(tree)
        let result = Binary.run(["prune", root.description, "--format", "plain", "--max-size", "60K", "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        // Entries total 4 KiB blocks: f1..f10 = 8,12,16,20,24,32,36,40,48,52 KiB (5000-byte steps),
        // plus young.part 4 KiB. Cap 60K → target 30K: oldest first until at most 30 KiB.
        XCTAssertEqual(survivors(root), ["./sub0/f2", "./sub1/f1", "./young.part"])
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [String: Any]
        let removed = ((object?["roots"] as? [[String: Any]])?.first?["removed"] as? [String: [String: Any]]) ?? [:]
        XCTAssertEqual(removed["corrupted"]?["count"] as? Int, 1)
        XCTAssertEqual(removed["incomplete"]?["count"] as? Int, 1)
        XCTAssertEqual(removed["size"]?["count"] as? Int, 8)
    }

    /// A folder under the cache root that cachectl does not understand (no tag, no layout) is
    /// pruned by units: a git mirror whose packs are old but whose HEAD was just written is
    /// kept whole, never its old files alone; an old tool folder goes whole; with the same
    /// layout declared `--format plain`, file by file.
    func testUnknownStructureIsPrunedByWholeUnits() {
        let tree = TestTree("prune-units")
        let env = ["XDG_CACHE_HOME": tree.path("cache").description]
        func build() {
            tree.file("cache/tool/repo.git/objects/pack/p.pack", size: 30_000)
            tree.setModified("cache/tool/repo.git/objects/pack/p.pack", secondsSinceEpoch: now - 90 * 86_400)
            tree.file("cache/tool/repo.git/HEAD", size: 20)
            tree.setModified("cache/tool/repo.git/HEAD", secondsSinceEpoch: now - 86_400)
            tree.file("cache/tool/old/a", size: 9000)
            tree.file("cache/tool/old/b/c", size: 9000)
            tree.setModified("cache/tool/old/a", secondsSinceEpoch: now - 60 * 86_400)
            tree.setModified("cache/tool/old/b/c", secondsSinceEpoch: now - 50 * 86_400)
            tree.file("cache/tool/stale.log", size: 100)
            tree.setModified("cache/tool/stale.log", secondsSinceEpoch: now - 40 * 86_400)
        }
        build()
        let root = tree.path("cache/tool")
        let aged = Binary.run(["prune", root.description, "--max-age", "30d"], environment: env)
        XCTAssertEqual(aged.status, 0, aged.err)
        XCTAssertEqual(survivors(root), ["./repo.git/HEAD", "./repo.git/objects/pack/p.pack"], aged.out)
        XCTAssertFalse(
            Run.command(["test", "-e", tree.path("cache/tool/old").description]).status == 0,
            "the old unit went whole, folder and all")

        build()
        let sized = Binary.run(
            ["prune", root.description, "--max-size", "60K", "--trim-to", "0.9", "--json"], environment: env)
        XCTAssertEqual(sized.status, 0, sized.err)
        // 32 + 4 KiB (repo.git) + 24 KiB (old/) + 4 KiB > 60 KiB: the least recently written
        // unit goes first (old/, newest file 50 days), down to 54 KiB — the 90-day-old pack
        // file, first in a file-by-file order, stays with its mirror.
        XCTAssertEqual(survivors(root), ["./repo.git/HEAD", "./repo.git/objects/pack/p.pack", "./stale.log"], sized.out)

        build()
        let declared = Binary.run(
            ["prune", root.description, "--format", "plain", "--max-age", "30d"], environment: env)
        XCTAssertEqual(declared.status, 0, declared.err)
        XCTAssertEqual(survivors(root), ["./repo.git/HEAD"], "declared plain: file by file, as asked")
    }

    /// A plain folder is every file in it, judged by names and contents (`.part`, a GIF without
    /// its trailer): pointed at a home directory by mistake, prune would delete a user's files.
    func testRefusesFoldersThatAreNotCaches() {
        let tree = TestTree("prune-refuse")
        let home = tree.path("home")
        let env = ["HOME": home.description, "XDG_CACHE_HOME": home.appending(".cache").description]
        tree.file("home/notes.part", size: 100)
        tree.setModified("home/notes.part", secondsSinceEpoch: now - 86_400)
        tree.file("home/.cache/app/blob", size: 5000)
        tree.file("home/projects/photo.png", contents: Images.truncated(Images.png))
        tree.file("tagged/CACHEDIR.TAG", contents: Array("Signature: 8a477f597d28d172789f06886806bc55\n".utf8))
        tree.file("tagged/x.part", size: 100)
        tree.setModified("tagged/x.part", secondsSinceEpoch: now - 86_400)
        // SHA-256-named files (container blobs, say): only their names look like Kingfisher's,
        // whose rule would call every file dated in the past expired.
        for i in 0..<4 { tree.file("home/blobs/" + Oracle.sha256("blob \(i)"), size: 100) }
        // npm's folder holds its cache beside files that are no cache (logs, npx's installs).
        tree.file("home/.npm/_cacache/index-v5/00/00/key", size: 10)
        tree.file("home/.npm/_cacache/content-v2/sha512/00/00/x", size: 10)
        tree.file("home/.npm/_logs/debug-0.log", size: 10)
        tree.file("home/.npm/_npx/1/package.json", size: 10)
        // A folder holding two caches: `clear` clears one cache at a time.
        for name in ["a", "b"] {
            tree.file(
                "home/both/\(name)/CACHEDIR.TAG", contents: Array("Signature: 8a477f597d28d172789f06886806bc55\n".utf8))
        }
        let before = survivors(tree.root)

        let cases: [([String], String)] = [
            (
                ["prune", home.appending("blobs").description],
                "only its file names look like a Kingfisher cache: no marker file, "
                    + "folder name or CACHEDIR.TAG says so, and it is not under the cache root "
                    + "\(home.appending(".cache").quoted) "
                    + "(pass --format kingfisher to treat it as one)"
            ),
            (
                ["prune", home.description, "--max-size", "1B"],
                "it is the home directory; name a cache directory inside it"
            ),
            (
                ["prune", home.description, "--format", "plain"],
                "it is the home directory; name a cache directory inside it"
            ),
            (["clear", home.description], "it is the home directory; name a cache directory inside it"),
            (["prune", "/", "--dry-run"], "it is the file system root"),
            (
                ["prune", tree.root.description, "--dry-run"],
                "it holds the cache root \(home.appending(".cache").quoted); name that or a cache inside it"
            ),
            (
                ["clear", home.appending("both").description],
                "no CACHEDIR.TAG, not a recognised cache layout, not under the cache root "
                    + "\(home.appending(".cache").quoted); it holds the plain directory "
                    + "\(home.appending("both/a").quoted), the plain directory \(home.appending("both/b").quoted): "
                    + "name one of those"
            ),
            (
                ["prune", home.appending("projects").description],
                "no CACHEDIR.TAG, not a recognised cache layout, not under the cache root "
                    + "\(home.appending(".cache").quoted) (pass --format plain to treat it as a plain cache folder)"
            )
        ]
        for (args, cause) in cases {
            let run = Binary.run(args, environment: env)
            XCTAssertEqual(run.status, 1, args.joined(separator: " "))
            XCTAssertEqual(
                run.err, "cachectl: will not delete in \(RawPath(args[1]).quoted): \(cause)\n",
                args.joined(separator: " "))
        }
        XCTAssertEqual(survivors(tree.root), before, "nothing was deleted")

        // A folder that holds caches has those pruned, and nothing else in it.
        let npm = Binary.run(["prune", home.appending(".npm").description, "--max-size", "1K"], environment: env)
        XCTAssertEqual(npm.status, 0, npm.err)
        XCTAssertTrue(npm.out.hasPrefix(home.appending(".npm/_cacache").escaped + " (npm cache (cacache))"), npm.out)
        XCTAssertTrue(tree.path("home/.npm/_logs/debug-0.log").exists)
        XCTAssertTrue(tree.path("home/.npm/_npx/1/package.json").exists)

        // Caches are accepted: tagged, under the cache root, or with the format named.
        let tagged = Binary.run(["prune", tree.path("tagged").description], environment: env)
        XCTAssertEqual(tagged.status, 0, tagged.err)
        XCTAssertFalse(tree.path("tagged/x.part").exists)
        XCTAssertTrue(tree.path("tagged/CACHEDIR.TAG").exists)
        let underRoot = Binary.run(
            ["prune", home.appending(".cache/app").description, "--max-size", "1B"], environment: env)
        XCTAssertEqual(underRoot.status, 0, underRoot.err)
        XCTAssertFalse(tree.path("home/.cache/app/blob").exists)
        let named = Binary.run(["clear", home.appending("projects").description, "--format", "plain"], environment: env)
        XCTAssertEqual(named.status, 0, named.err)
        XCTAssertFalse(tree.path("home/projects/photo.png").exists)
        XCTAssertTrue(tree.path("home/notes.part").exists)
        // Under the cache root the same folder is a cache, pruned as a plain one: nothing is stale.
        XCTAssertEqual(
            Run.command(["cp", "-a", home.appending("blobs").description, home.appending(".cache/blobs").description])
                .status, 0)
        let underRootBlobs = Binary.run(["prune", home.appending(".cache/blobs").description], environment: env)
        XCTAssertEqual(underRootBlobs.status, 0, underRootBlobs.err)
        XCTAssertTrue(underRootBlobs.out.contains("(plain directory)"), underRootBlobs.out)
        XCTAssertEqual(survivors(home.appending(".cache/blobs")).count, 4)
        XCTAssertEqual(
            Binary.run(["prune", home.appending("blobs").description, "--format", "kingfisher"], environment: env)
                .status, 0)
        XCTAssertEqual(survivors(home.appending("blobs")), [], "named as Kingfisher, its past-dated files are expired")
    }

    /// A plain cache folder holding a cachectl store: the store's files are not loose files.
    /// Pruning the folder used to delete the store's index, tag and bodies one by one.
    func testNestedStoreInAPlainFolderIsKeptWhole() throws {
        let tree = TestTree("prune-nested")
        let store = tree.path("c/cachectl")
        XCTAssertEqual(
            Binary.run(["put", "https://x.com/a", tree.file("in", size: 9000).description, "--cache", store.description]
            ).status, 0)
        tree.file("c/app/old", size: 5000)
        tree.setModified("c/app/old", secondsSinceEpoch: now - 86_400)
        tree.file("c/app/CACHEDIR.TAG", contents: Array("Signature: 8a477f597d28d172789f06886806bc55\n".utf8))
        let storeFiles = survivors(store)

        let result = Binary.run(["prune", tree.path("c").description, "--format", "plain", "--max-size", "1B", "--json"]
        )
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(tree.path("c/app/old").exists)
        XCTAssertTrue(tree.path("c/app/CACHEDIR.TAG").exists, "a nested cache's tag is not an entry")
        XCTAssertEqual(survivors(store), storeFiles)
        XCTAssertEqual(Binary.run(["cat", "https://x.com/a", "--cache", store.description]).stdout.count, 9000)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let kept = try XCTUnwrap((object["roots"] as? [[String: Any]])?.first?["kept"] as? [[String: Any]])
        XCTAssertEqual(kept.compactMap { $0["path"] as? String }, [store.description])

        // Nor is a folder inside the store pruned on its own, whatever the format named.
        for args in [
            ["prune", store.appending("objects").description, "--format", "plain", "--max-size", "1B"],
            ["clear", store.appending("tmp").description, "--format", "plain"]
        ] {
            let run = Binary.run(args)
            XCTAssertEqual(run.status, 1, args.joined(separator: " "))
            XCTAssertEqual(
                run.err,
                """
                cachectl: will not delete in \(RawPath(args[1]).quoted): it lies inside the cachectl store \
                \(store.quoted); prune that\n
                """
            )
        }
        XCTAssertEqual(survivors(store), storeFiles)
    }

    func testDryRunChangesNothingAndPrintsTheRealPlan() throws {
        let tree = TestTree("prune-dry")
        let root = plainFixture(tree)
        let store = tree.path("store")
        for i in 0..<6 {
            XCTAssertEqual(
                Binary.run([
                    "put", "https://x.com/\(i)", tree.file("in\(i)", size: 3000 * (i + 1)).description,
                    "--cache", store.description, "--expires", i < 2 ? "1s" : "1d"
                ]).status, 0)
        }
        sleep(2)
        // The plain fixture is untagged and outside the cache root: its format is named.
        func plain(_ dir: RawPath) -> [String] { dir == root ? ["--format", "plain"] : [] }
        for dir in [root, store] {
            let frozen = freeze(dir)
            // The dry run reads the native index from a private copy in $TMPDIR, removed after.
            let temporary = tree.dir("tmp-\(dir.lastComponent.count)")
            let dry = Binary.run(
                ["prune", dir.description, "--max-size", "20K", "--dry-run", "--json"] + plain(dir),
                environment: ["TMPDIR": temporary.description])
            XCTAssertEqual(dry.status, 0, dry.err)
            XCTAssertEqual(check(dir, frozen), "", "dry run touched \(dir)")
            XCTAssertEqual(
                Run.command(["ls", "-A", temporary.description]).out, "", "the index snapshot was left behind")
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dry.stdout)) as? [String: Any])
            let planned = Set(
                ((object["roots"] as? [[String: Any]])?.first?["plan"] as? [[String: Any]] ?? []).compactMap {
                    $0["path"] as? String
                })
            XCTAssertFalse(planned.isEmpty)
            let real = Binary.run(["prune", dir.description, "--max-size", "20K"] + plain(dir))
            XCTAssertEqual(real.status, 0, real.err)
            let gone = planned.filter { !RawPath($0).exists }
            XCTAssertEqual(gone, planned, "the real run removes exactly what the dry run planned")
        }
    }

    /// A dry run reads a SQLite cache from a private copy (its access times must not move);
    /// the copy is made a block at a time. Both kinds of copy are tried: a native index and
    /// Apple's `Cache.db`, each 400 MB (a hole after its pages, which SQLite ignores), in
    /// 290 MB of address space. Each was read whole before: SIGABRT, the copy left in TMPDIR.
    func testADryRunCopiesALargeDatabaseWithoutHoldingIt() throws {
        let tree = TestTree("prune-dry-large")
        let store = tree.path("store")
        for i in 0..<3 {
            let put = Binary.run([
                "put", "https://x.com/\(i)", tree.file("in\(i)", size: 3000).description, "--cache",
                store.description, "--expires", "1d"
            ])
            XCTAssertEqual(put.status, 0, put.err)
        }
        let urlcache = tree.dir("com.example.app/Cache")
        URLCacheFixture.write(
            urlcache,
            rows: [
                .init(
                    url: "https://a.example/fresh.png", storedAgo: 60, headers: ["Cache-Control": "max-age=86400"],
                    body: Images.png)
            ])
        for (root, database) in [(store, "index.sqlite"), (urlcache, "Cache.db")] {
            XCTAssertEqual(truncate(root.appending(database).description, 400 << 20), 0)
            let temporary = tree.dir("tmp-\(database)")
            let dry = Run.command(
                [
                    "sh", "-c",
                    "ulimit -v 290000; TMPDIR='\(temporary.description)' exec '\(Binary.path)' prune "
                        + "'\(root.description)' --max-size 0B --dry-run"
                ])
            XCTAssertEqual(dry.status, 0, database + ": " + String(dry.err.suffix(500)))
            XCTAssertTrue(dry.out.contains("would free"), dry.out)
            XCTAssertEqual(Run.command(["ls", "-A", temporary.description]).out, "", "the copy was left behind")
        }
    }

    func testNativeStoreByLastAccessAndRowsWithBodies() throws {
        let tree = TestTree("prune-native")
        let store = tree.path("store")
        for i in 0..<6 {
            XCTAssertEqual(
                Binary.run([
                    "put", "https://x.com/\(i)", tree.file("in\(i)", size: 10_000).description, "--cache",
                    store.description
                ]).status, 0)
        }
        // Use entry 0 last: by last access it is the most recent despite being oldest.
        XCTAssertEqual(Binary.run(["cat", "https://x.com/0", "--cache", store.description]).status, 0)
        let result = Binary.run(["prune", store.description, "--max-size", "50K"])
        XCTAssertEqual(result.status, 0, result.err)
        let ls = Binary.run(["ls", store.description, "--json"])
        let entries =
            ((try? JSONSerialization.jsonObject(with: Data(ls.stdout))) as? [String: Any])?["entries"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(entries.compactMap { $0["url"] as? String }.sorted(), ["https://x.com/0", "https://x.com/5"])
        XCTAssertEqual(FileTree.files(under: store.appending("objects")).count, 2, "bodies went with their rows")
        XCTAssertTrue(CacheDirTag.isTagged(store))
        XCTAssertTrue(store.appending("index.sqlite").exists)
    }

    func testSymlinkToAnOutsideFolderFullOfOldFiles() {
        let tree = TestTree("prune-link")
        let outside = TestTree("prune-victim")
        for i in 0..<5 {
            outside.file("precious\(i)", size: 8000)
            outside.setModified("precious\(i)", secondsSinceEpoch: now - 400 * 86_400)
        }
        tree.file("c/mine", size: 100)
        tree.setModified("c/mine", secondsSinceEpoch: now - 400 * 86_400)
        tree.symlink(outside.root.description, at: "c/link-dir")
        tree.symlink(outside.path("precious0").description, at: "c/link-file")
        tree.setModified("c/link-dir", secondsSinceEpoch: now - 400 * 86_400)
        tree.setModified("c/link-file", secondsSinceEpoch: now - 400 * 86_400)
        let frozen = freeze(outside.root)
        let result = Binary.run(["prune", tree.path("c").description, "--format", "plain", "--max-age", "30d"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(check(outside.root, frozen), "", "nothing outside the cache changed, not even an access time")
        XCTAssertEqual(survivors(tree.path("c")), [], "the links themselves are entries and were unlinked")
    }

    func testPlistEntryPointingOutsideIsKeptAndTheIndexKeepsOtherKeys() {
        let tree = TestTree("prune-plist")
        let outside = TestTree("prune-plist-out")
        outside.file("elsewhere.cache", size: 5000)
        let root = tree.dir("dl")
        tree.file("dl/ok.cache", size: 3000)
        tree.file("dl/stale.cache", size: 3000)
        tree.file("dl/partial.cache", size: 3000)
        tree.setModified("dl/partial.cache", secondsSinceEpoch: now - 3 * 3600)
        let code = """
            import plistlib, sys, datetime
            n = datetime.datetime.utcnow(); d = lambda **k: n + datetime.timedelta(**k); r = sys.argv[2]
            plistlib.dump({
              'http://ok': {'DownloadStartDate': d(hours=-1), 'DownloadEndDate': d(hours=-1), 'ExpiryDate': \
            d(days=1), 'LocalURL': r + '/ok.cache', 'Extra': [1, 2]},
              'http://stale': {'DownloadStartDate': d(days=-3), 'DownloadEndDate': d(days=-3), 'ExpiryDate': \
            d(days=-1), 'LocalURL': r + '/stale.cache'},
              'http://partial': {'DownloadStartDate': d(hours=-3), 'LocalURL': r + '/partial.cache'},
              'http://out': {'DownloadStartDate': d(days=-9), 'DownloadEndDate': d(days=-9), 'ExpiryDate': \
            d(days=-8), 'LocalURL': sys.argv[3]},
            }, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)
            """
        XCTAssertEqual(
            Oracle.python(
                code,
                [
                    root.appending("CachedDownloads.dic").description, root.description,
                    outside.path("elsewhere.cache").description
                ]
            ).status, 0)
        let result = Binary.run(["prune", root.description])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("kept"), result.out)
        XCTAssertTrue(outside.path("elsewhere.cache").exists)
        XCTAssertEqual(survivors(root), ["./CachedDownloads.dic", "./ok.cache"])
        let check = Oracle.python(
            """
            import plistlib,sys; raw=open(sys.argv[1],'rb').read(); d=plistlib.loads(raw); print(raw[:8] == \
            b'bplist00', sorted(d), d['http://ok']['Extra'])
            """,
            [root.appending("CachedDownloads.dic").description])
        XCTAssertEqual(check.out, "True ['http://ok', 'http://out'] [1, 2]\n")
    }

    func testTwoPrunesAtOnceBothSucceed() {
        let tree = TestTree("prune-two")
        for i in 0..<300 {
            tree.file("c/d\(i % 10)/f\(i)", size: 4000)
            tree.setModified("c/d\(i % 10)/f\(i)", secondsSinceEpoch: now - i * 60)
        }
        let root = tree.path("c").description
        let script =
            """
            \"$0\" prune \"$1\" --format plain --max-size 600K >/dev/null 2>\"$1.err1\" & A=$!; \"$0\" prune \
            \"$1\" --format plain --max-size 600K >/dev/null 2>\"$1.err2\" & B=$!; wait $A || exit 1; wait $B || \
            exit 2
            """
        let run = Run.command(["sh", "-c", script, Binary.path, root])
        XCTAssertEqual(run.status, 0, run.err)
        // 300 files of 4 KiB; target 300 KiB → the 75 most recent stay.
        XCTAssertEqual(survivors(tree.path("c")).count, 75)
    }

    func testKilledMidRunTheNextPruneRepairs() {
        let tree = TestTree("prune-kill")
        let store = tree.path("store").description
        for i in 0..<20 {
            XCTAssertEqual(
                Binary.run([
                    "put", "https://x.com/\(i)", tree.file("in\(i)", size: 5000).description, "--cache", store,
                    "--expires", i < 10 ? "1s" : "1d"
                ]).status, 0)
        }
        sleep(2)
        let killed = Binary.run(["prune", store], environment: ["CACHECTL_CRASH_AT": "prune.afterIndex"])
        XCTAssertEqual(killed.status, 128 + 9)
        // Rows went first: every remaining row has its body; the expired bodies are orphans now.
        let afterKill = Binary.run(["ls", store, "--grace", "0s", "--json"])
        let entries =
            ((try? JSONSerialization.jsonObject(with: Data(afterKill.stdout))) as? [String: Any])?["entries"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(entries.filter { $0["state"] as? String == "fresh" }.count, 10)
        XCTAssertEqual(entries.filter { $0["state"] as? String == "orphan" }.count, 10)
        XCTAssertEqual(entries.filter { $0["state"] as? String == "corrupted" }.count, 0, "no row lost its body")

        let again = Binary.run(["prune", store, "--grace", "0s"])
        XCTAssertEqual(again.status, 0, again.err)
        let final = Binary.run(["ls", store, "--grace", "0s", "--json"])
        let finalEntries =
            ((try? JSONSerialization.jsonObject(with: Data(final.stdout))) as? [String: Any])?["entries"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(finalEntries.count, 10)
        XCTAssertTrue(finalEntries.allSatisfy { $0["state"] as? String == "fresh" })
        for i in 10..<20 { XCTAssertEqual(Binary.run(["cat", "https://x.com/\(i)", "--cache", store]).status, 0) }
    }

    func testMountPointInsideTheCacheIsNeverCrossed() throws {
        let tree = TestTree("prune-mount")
        tree.file("c/old", size: 100)
        tree.setModified("c/old", secondsSinceEpoch: now - 100 * 86_400)
        let mount = tree.dir("c/mnt")
        guard Run.command(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.description]).status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here")
        }
        defer { _ = Run.command(["umount", mount.description]) }
        _ = Run.command([
            "sh", "-c",
            "echo data > '\(mount.description)/other-fs' && touch -d '200 days ago' '\(mount.description)/other-fs'"
        ])
        let result = Binary.run(["prune", tree.path("c").description, "--format", "plain", "--max-age", "1d"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(tree.path("c/old").exists)
        XCTAssertTrue(mount.appending("other-fs").exists)
    }

    func testUsageAndMissingRoot() throws {
        XCTAssertEqual(Binary.run(["prune", "/tmp", "--max-size", "lots"]).status, 2)
        XCTAssertEqual(Binary.run(["prune", "/tmp", "--trim-to", "1.5"]).status, 2)
        let missing = Binary.run(["prune", "/nonexistent-cache-root"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err, "cachectl: cannot access '/nonexistent-cache-root': No such file or directory\n")

        // No root given and no store yet: nothing is cached, which a scheduled prune must not
        // report as a failure; a root named explicitly must exist.
        let tree = TestTree("prune-fresh")
        let env = ["XDG_CACHE_HOME": tree.path("cache").description]
        let note =
            "cachectl: default store \(tree.path("cache/cachectl").quoted) does not exist: nothing is cached yet\n"
        for args in [["prune", "--max-size", "500M"], ["clear"], ["ls"]] {
            let run = Binary.run(args, environment: env)
            XCTAssertEqual(run.status, 0, args[0])
            XCTAssertEqual(run.err, note, args[0])
            XCTAssertEqual(run.out, "", args[0])
        }
        let empty = Binary.run(["prune", "--json"], environment: env)
        let document = try JSONSerialization.jsonObject(with: Data(empty.stdout)) as? NSDictionary
        XCTAssertEqual(document, ["dryRun": false, "roots": [Any](), "errors": [Any]()] as NSDictionary, empty.out)
        XCTAssertFalse(tree.path("cache").exists, "nothing was created")
        XCTAssertEqual(Binary.run(["prune", tree.path("cache/cachectl").description], environment: env).status, 1)
    }
}

/// A directory swapped for a symlink between planning and deleting cannot redirect a deletion.
final class PruneSwapTests: XCTestCase {
    func testDirectorySwappedForASymlinkMidRun() throws {
        let tree = TestTree("swap")
        let outside = TestTree("swap-victim")
        outside.file("f1", size: 100)
        outside.file("f2", size: 100)
        tree.file("c/sub/f1", size: 100)
        tree.file("c/sub/f2", size: 100)
        tree.file("c/keep/f3", size: 100)
        let root = tree.path("c")
        let format = try CacheFormats.open(root, as: .plain)
        let plan = PrunePolicy.plan(
            try format.entries(InspectionContext()), rules: PruneRules(maxAge: 0, now: FileTime.now.adding(10)))
        XCTAssertEqual(plan.deletions.count, 3)
        // Swap: sub becomes a symlink to the outside folder holding files of the same names.
        XCTAssertEqual(
            Run.command(["mv", tree.path("c/sub").description, tree.path("c/sub-moved").description]).status, 0)
        tree.symlink(outside.root.description, at: "c/sub")
        let outcome = PruneExecutor.execute(plan, on: format)
        XCTAssertTrue(outside.path("f1").exists && outside.path("f2").exists, "nothing outside was deleted")
        XCTAssertEqual(outcome.failures.count, 2)
        XCTAssertTrue(
            outcome.failures.allSatisfy { $0.message.contains("symlink") }, "\(outcome.failures.map(\.message))")
        XCTAssertFalse(tree.path("c/keep/f3").exists)
    }
}
