import CacheKit
import Foundation
import TestSupport
import XCTest

/// Caches Linux users have, laid out as their owners write them, through the built binary.
final class LinuxCachesEndToEndTests: XCTestCase {
    var now: Int { Int(FileTime.now.timeInterval) }

    private func survivors(_ dir: RawPath) -> [String] {
        Run.command(["sh", "-c", "cd '\(dir.description)' && find . ! -type d | sort"]).out.split(separator: "\n").map(
            String.init)
    }

    private func states(_ root: RawPath) throws -> [String: String] {
        let ls = Binary.run(["ls", root.description, "--json"])
        XCTAssertEqual(ls.status, 0, ls.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ls.stdout)) as? [String: Any])
        let entries = try XCTUnwrap(
            ((object["caches"] as? [[String: Any]])?.first?["entries"] ?? object["entries"]) as? [[String: Any]],
            ls.out)
        var out: [String: String] = [:]
        for entry in entries {
            let path = (entry["path"] as? String) ?? ""
            out[String(path.dropFirst(root.description.count + 1))] = entry["state"] as? String
        }
        return out
    }

    /// Caches known by their folder's name are known by the name they are reached by: a
    /// `~/.cache/thumbnails` or `~/.cache/pip` that links to a folder of another name (a cache
    /// moved to another disk) was a plain folder, and prune refused it as "not under the cache
    /// root" though it is.
    func testACacheReachedThroughASymlinkIsKnownByItsName() throws {
        let tree = TestTree("linked-names")
        tree.file("disk/th/normal/0123456789abcdef0123456789abcdef.png", contents: Images.png)
        tree.file("disk/pp/http/a/b/c/d/e/abcde0123", contents: Array("not cc=4".utf8))
        tree.dir("home/.cache")
        let cache = tree.path("home/.cache")
        XCTAssertEqual(symlink(tree.path("disk/th").description, cache.appending("thumbnails").description), 0)
        XCTAssertEqual(symlink(tree.path("disk/pp").description, cache.appending("pip").description), 0)
        let environment = ["HOME": tree.path("home").description, "XDG_CACHE_HOME": cache.description]
        for (name, kind) in [("thumbnails", "freedesktop thumbnails"), ("pip", "pip cache")] {
            let path = cache.appending(name).description
            let ls = Binary.run(["ls", path], environment: environment)
            XCTAssertEqual(ls.status, 0, ls.err)
            XCTAssertTrue(ls.out.hasPrefix("\(kind): "), name + ": " + ls.out)
            let prune = Binary.run(["prune", "--dry-run", path], environment: environment)
            XCTAssertEqual(prune.status, 0, name + ": " + prune.err)
            XCTAssertTrue(prune.out.contains("(\(kind))"), name + ": " + prune.out)
        }
    }

    /// Thumbnails by the spec's own rule: stale when the source is gone or its mtime is not
    /// Thumb::MTime; a remote source's thumbnail not read for 30 days; PNGs cut short.
    /// Written with Pillow's PngInfo tEXt chunks, as thumbnailers write them.
    func testThumbnailsByTheSpecsRule() throws {
        let tree = TestTree("thumbs")
        let source = tree.file("pictures/kept.jpg", contents: Images.jpeg)
        let changed = tree.file("pictures/changed.jpg", contents: Images.jpeg)
        tree.setModified("pictures/changed.jpg", secondsSinceEpoch: now - 86_400)
        let gone = tree.path("pictures/gone.jpg")
        let root = tree.dir("cache/thumbnails")
        func uri(_ p: RawPath) -> String { "file://" + p.description.replacingOccurrences(of: " ", with: "%20") }
        let spec: [(String, String, String?)] = [
            ("normal/\(Oracle.md5(uri(source))).png", uri(source), "MTIME:\(source.description)"),
            ("large/\(Oracle.md5(uri(changed))).png", uri(changed), "\(now - 5 * 86_400)"),
            ("normal/\(Oracle.md5(uri(gone))).png", uri(gone), "\(now)"),
            ("normal/\(Oracle.md5("https://x.example/a.png")).png", "https://x.example/a.png", nil),
            ("normal/\(Oracle.md5(uri(source) + "#nomtime")).png", uri(source), ""),
            ("fail/gnome-thumbnail-factory/\(Oracle.md5(uri(gone))).png", uri(gone), "\(now)")
        ]
        for (relative, uri, mtime) in spec {
            let made = Oracle.python(
                """
                import os, sys
                from PIL import Image
                from PIL.PngImagePlugin import PngInfo
                path, uri, mtime = sys.argv[1], sys.argv[2], sys.argv[3]
                if mtime.startswith('MTIME:'): mtime = str(int(os.stat(mtime[6:]).st_mtime))
                info = PngInfo()
                info.add_text('Thumb::URI', uri)
                if mtime: info.add_text('Thumb::MTime', mtime)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                Image.new('RGB', (16, 16), (200, 10, 10)).save(path, pnginfo=info)
                """, [root.appending(relative).description, uri, mtime ?? ""])
            XCTAssertEqual(made.status, 0, made.err)
        }
        // The remote one not read for 40 days; a thumbnail cut short long ago; a temporary.
        let remote = "normal/\(Oracle.md5("https://x.example/a.png")).png"
        tree.setModified("cache/thumbnails/\(remote)", secondsSinceEpoch: now - 40 * 86_400)
        tree.file("cache/thumbnails/normal/\(Oracle.md5("file:///cut")).png", contents: Images.truncated(Images.png))
        tree.setModified("cache/thumbnails/normal/\(Oracle.md5("file:///cut")).png", secondsSinceEpoch: now - 7200)
        tree.file("cache/thumbnails/normal/abc.png.XQ12Z", size: 300)
        tree.setModified("cache/thumbnails/normal/abc.png.XQ12Z", secondsSinceEpoch: now - 7200)

        XCTAssertEqual(CacheFormats.detect(root), .thumbnails, "MD5-named PNGs, but not SDWebImage's")
        let s = try states(root)
        XCTAssertEqual(s[spec[0].0], "fresh")
        XCTAssertEqual(s[spec[1].0], "expired", "source modified since")
        XCTAssertEqual(s[spec[2].0], "expired", "source gone")
        XCTAssertEqual(s[remote], "expired", "remote, not read for 30 days")
        XCTAssertEqual(s[spec[4].0], "expired", "no Thumb::MTime")
        XCTAssertEqual(s[spec[5].0], "expired", "fail/ likewise")
        XCTAssertEqual(s["normal/\(Oracle.md5("file:///cut")).png"], "corrupted")
        XCTAssertEqual(s["normal/abc.png.XQ12Z"], "incomplete")

        let prune = Binary.run(["prune", root.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(survivors(root), ["./" + spec[0].0])
    }

    /// Go's build cache: an action and the output only it names are one entry, trimmed after
    /// 5 days and an hour unused; README, trim.txt, testexpire.txt and fuzz/ are go's own.
    func testGoBuildCacheByGosTrimRule() throws {
        let tree = TestTree("gobuild")
        let root = tree.dir("cache/go-build")
        tree.file(
            "cache/go-build/README",
            contents: Array(
                """
                This directory holds cached build artifacts from the Go build system.\nRun \"go clean -cache\" if \
                the directory is getting too large.\nRun \"go clean -fuzzcache\" to delete the fuzz cache.\nSee \
                golang.org to learn more about Go.\n
                """
                .utf8))
        tree.file("cache/go-build/trim.txt", contents: Array("\(now - 7 * 86_400)\n".utf8))
        tree.file("cache/go-build/testexpire.txt", contents: Array("1700000000000000000\n".utf8))
        tree.file("cache/go-build/fuzz/example.com/m/FuzzX/seed", size: 100)
        tree.setModified("cache/go-build/fuzz/example.com/m/FuzzX/seed", secondsSinceEpoch: now - 90 * 86_400)
        tree.setModified("cache/go-build/trim.txt", secondsSinceEpoch: now - 90 * 86_400)
        tree.setModified("cache/go-build/README", secondsSinceEpoch: now - 90 * 86_400)

        var expected: [String] = ["./README", "./fuzz/example.com/m/FuzzX/seed", "./testexpire.txt", "./trim.txt"]
        /// Writes an action naming an output of `content` (the output's name is its SHA-256),
        /// both last used `daysAgo`; returns their relative paths.
        func entry(
            _ id: String, _ content: [UInt8], daysAgo: Double, recordedSize: Int? = nil, writeOutput: Bool = true
        ) -> (String, String) {
            let action = Oracle.sha256(id)
            let output = Digest.sha256(bytes: content)
            let header =
                """
                v1 \(action) \(output) \(String(format: "%20d", recordedSize ?? content.count)) \
                \(String(format: "%20d", 1_700_000_000_000_000_000))\n
                """
            XCTAssertEqual(header.utf8.count, 175)
            let a = "\(action.prefix(2))/\(action)-a"
            let d = "\(output.prefix(2))/\(output)-d"
            tree.file("cache/go-build/\(a)", contents: Array(header.utf8))
            tree.setModified("cache/go-build/\(a)", secondsSinceEpoch: now - Int(daysAgo * 86_400))
            if writeOutput {
                tree.file("cache/go-build/\(d)", contents: content)
                tree.setModified("cache/go-build/\(d)", secondsSinceEpoch: now - Int(daysAgo * 86_400))
            }
            return ("./" + a, "./" + d)
        }
        let used = entry("used", Array("object code 1".utf8), daysAgo: 1)
        expected += [used.0, used.1]
        _ = entry("unused", Array("object code 2".utf8), daysAgo: 6)
        _ = entry("cut", Array("object code 3".utf8), daysAgo: 1, recordedSize: 999)
        // One output two actions name: it is its own entry, by its own time.
        let shared = Array("shared output".utf8)
        let s1 = entry("s1", shared, daysAgo: 1)
        let s2 = entry("s2", shared, daysAgo: 7, writeOutput: false)
        _ = s2
        expected += [s1.0, s1.1]
        tree.file("cache/go-build/ab/\(String(repeating: "ab", count: 32))-a", contents: Array("garbage".utf8))
        tree.setModified("cache/go-build/ab/\(String(repeating: "ab", count: 32))-a", secondsSinceEpoch: now - 7200)

        XCTAssertEqual(CacheFormats.detect(root), .gobuild)
        let s = try states(root)
        XCTAssertEqual(s[String(used.0.dropFirst(2))], "fresh")
        XCTAssertNil(s[String(used.1.dropFirst(2))], "an output only one action names is part of that entry")
        XCTAssertEqual(s["ab/\(String(repeating: "ab", count: 32))-a"], "corrupted")
        XCTAssertNil(s["README"])
        XCTAssertNil(s["trim.txt"])

        let prune = Binary.run(["prune", root.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(survivors(root), expected.sorted(), prune.out)
    }
}

/// `~/.cache` as a cache of caches: each cache found in it pruned by its owner's rules, a cap
/// shared across them by least recent use.
final class CacheOfCachesEndToEndTests: XCTestCase {
    var now: Int { Int(FileTime.now.timeInterval) }

    private func survivors(_ dir: RawPath) -> [String] {
        Run.command(["sh", "-c", "cd '\(dir.description)' && find . ! -type d | sort"]).out.split(separator: "\n").map(
            String.init)
    }

    private func home(_ tree: TestTree) -> RawPath {
        let day = 86_400
        // Go's build cache: one entry used a day ago, one 10 days ago.
        tree.file(
            "cache/go-build/README",
            contents: Array("This directory holds cached build artifacts from the Go build system.\n".utf8))
        for (id, days) in [("fresh", 1), ("old", 10)] {
            let action = Oracle.sha256(id)
            let output = Digest.sha256(bytes: Array(id.utf8))
            let header =
                "v1 \(action) \(output) \(String(format: "%20d", id.utf8.count)) \(String(format: "%20d", 0))\n"
            tree.file("cache/go-build/\(action.prefix(2))/\(action)-a", contents: Array(header.utf8))
            tree.file("cache/go-build/\(output.prefix(2))/\(output)-d", contents: Array(id.utf8))
            tree.setModified("cache/go-build/\(action.prefix(2))/\(action)-a", secondsSinceEpoch: now - days * day)
            tree.setModified("cache/go-build/\(output.prefix(2))/\(output)-d", secondsSinceEpoch: now - days * day)
        }
        // An application's folder nobody declared: its subdirectories are units.
        tree.file("cache/myapp/mirror.git/objects/pack/p.pack", size: 20_000)
        tree.setModified("cache/myapp/mirror.git/objects/pack/p.pack", secondsSinceEpoch: now - 200 * day)
        tree.file("cache/myapp/mirror.git/HEAD", size: 20)
        tree.setModified("cache/myapp/mirror.git/HEAD", secondsSinceEpoch: now - 2 * day)
        tree.file("cache/myapp/old/blob", size: 20_000)
        tree.setModified("cache/myapp/old/blob", secondsSinceEpoch: now - 100 * day)
        // A tagged folder: by units too (its contents may go, not each file on its own).
        tree.file("cache/tagged/CACHEDIR.TAG", contents: Array("Signature: 8a477f597d28d172789f06886806bc55\n".utf8))
        tree.file("cache/tagged/sub/old.bin", size: 5000)
        tree.setModified("cache/tagged/sub/old.bin", secondsSinceEpoch: now - 60 * day)
        tree.file("cache/tagged/sub/new.bin", size: 5000)
        // A device backup's app caches, five levels down: SDWebImage by access date.
        let sd = "cache/backup/Device/AppX/Library/Caches/com.hackemist.SDImageCache/default"
        tree.file("\(sd)/\(Oracle.md5("https://a.example/old.png")).png", contents: Images.png)
        tree.setModified("\(sd)/\(Oracle.md5("https://a.example/old.png")).png", secondsSinceEpoch: now - 9 * day)
        tree.file("\(sd)/\(Oracle.md5("https://a.example/new.png")).png", contents: Images.png)
        tree.file("cache/loose.log", size: 100)
        tree.setModified("cache/loose.log", secondsSinceEpoch: now - 45 * day)
        return tree.path("cache")
    }

    func testEachCacheByItsOwnRulesPlusTheGivenOnes() throws {
        let tree = TestTree("cache-of-caches")
        let cache = home(tree)
        let env = ["XDG_CACHE_HOME": cache.description, "HOME": tree.root.description]
        let dry = Binary.run(["prune", cache.description, "--max-age", "30d", "--dry-run", "--json"], environment: env)
        XCTAssertEqual(dry.status, 0, dry.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dry.stdout)) as? [String: Any])
        let roots = (object["roots"] as? [[String: Any]]) ?? []
        let formats = Dictionary(
            uniqueKeysWithValues: roots.map {
                (
                    String(($0["path"] as? String ?? "").dropFirst(cache.description.count)),
                    $0["format"] as? String ?? ""
                )
            })
        XCTAssertEqual(formats["/go-build"], "gobuild")
        XCTAssertEqual(formats["/myapp"], "plain")
        XCTAssertEqual(formats["/tagged"], "plain")
        XCTAssertEqual(formats["/backup/Device/AppX/Library/Caches/com.hackemist.SDImageCache"], "sdwebimage")
        XCTAssertEqual(formats[""], "plain", "the folder's own loose files")
        // ls sees the same caches.
        let ls = Binary.run(["ls", cache.description, "--json"], environment: env)
        XCTAssertEqual(ls.status, 0, ls.err)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ls.stdout)) as? [String: Any])
        let listedFormats = Dictionary(
            uniqueKeysWithValues: ((listed["caches"] as? [[String: Any]]) ?? []).map {
                (
                    String(($0["path"] as? String ?? "").dropFirst(cache.description.count)),
                    $0["format"] as? String ?? ""
                )
            })
        XCTAssertEqual(listedFormats.merging(["": "plain"]) { a, _ in a }, formats)
        // du, in its one walk, shows the same recognised caches at any depth.
        let du = Binary.run(["du", cache.description, "--json"], environment: env)
        XCTAssertEqual(du.status, 0, du.err)
        let duObject = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(du.stdout)) as? [String: Any])
        let duCaches = (((duObject["roots"] as? [[String: Any]])?.first?["caches"]) as? [[String: Any]]) ?? []
        let duFormats = Dictionary(
            uniqueKeysWithValues: duCaches.compactMap { c -> (String, String)? in
                guard let format = c["format"] as? String else { return nil }
                return (String((c["path"] as? String ?? "").dropFirst(cache.description.count)), format)
            })
        XCTAssertEqual(duFormats["/go-build"], "gobuild")
        XCTAssertEqual(duFormats["/backup/Device/AppX/Library/Caches/com.hackemist.SDImageCache"], "sdwebimage", du.out)
        XCTAssertEqual(
            duCaches.first { ($0["path"] as? String)?.hasSuffix("/com.hackemist.SDImageCache") == true }?["kind"]
                as? String, "recognised")

        let run = Binary.run(["prune", cache.description, "--max-age", "30d"], environment: env)
        XCTAssertEqual(run.status, 0, run.err)
        let left = survivors(cache)
        XCTAssertTrue(
            left.contains("./myapp/mirror.git/objects/pack/p.pack"), "a unit is judged by its newest file: \(left)")
        XCTAssertFalse(left.contains("./myapp/old/blob"))
        XCTAssertTrue(left.contains("./tagged/sub/old.bin"), "tagged, by units: sub/ has a new file")
        XCTAssertTrue(left.contains("./tagged/sub/new.bin"))
        XCTAssertTrue(left.contains("./tagged/CACHEDIR.TAG"))
        XCTAssertFalse(left.contains("./loose.log"))
        XCTAssertTrue(left.contains("./go-build/README"))
        XCTAssertEqual(
            left.filter { $0.hasPrefix("./go-build/") && $0 != "./go-build/README" }.count, 2,
            "go's fresh entry, action and output: \(left)")
        let sdLeft = left.filter { $0.contains("SDImageCache") }
        XCTAssertEqual(
            sdLeft,
            [
                "./backup/Device/AppX/Library/Caches/com.hackemist.SDImageCache/default/"
                    + Oracle.md5("https://a.example/new.png")
                    + ".png"
            ],
            "SDWebImage's 7 days by access date")
    }

    func testASharedCapEvictsTheLeastRecentlyUsedAcrossCaches() throws {
        let tree = TestTree("shared-cap")
        let cache = home(tree)
        let env = ["XDG_CACHE_HOME": cache.description, "HOME": tree.root.description]
        // The owners' rules first (go's 10-day entry, SDWebImage's 9-day image); then 76 KiB
        // remain: go 8 KiB (1 day), myapp's mirror 24 KiB (newest file 2 days) and old/
        // 20 KiB (100 days), tagged sub/ 16 KiB (its newest file now: a unit), the new image
        // 4 KiB (now), the loose log 4 KiB (45 days). Over 40 KiB, down to 36 KiB
        // (--trim-to 0.9), least recently used first across the caches: old/, the log, the
        // mirror (whole).
        // Each cache's report gives the cap it was pruned by (its size row said "no size cap").
        let dry = Binary.run(
            ["prune", cache.description, "--max-size", "40K", "--trim-to", "0.9", "--dry-run"], environment: env)
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertEqual(
            dry.out.components(separatedBy: "size (over --max-size 40K)").count - 1,
            dry.out.components(separatedBy: " — dry run").count - 1, dry.out)
        XCTAssertFalse(dry.out.contains("no size cap"), dry.out)
        let run = Binary.run(
            ["prune", cache.description, "--max-size", "40K", "--trim-to", "0.9", "--json"], environment: env)
        XCTAssertEqual(run.status, 0, run.err)
        let left = survivors(cache)
        let go = left.filter { $0.hasPrefix("./go-build/") && $0 != "./go-build/README" }
        XCTAssertEqual(go.count, 2)
        XCTAssertEqual(
            left,
            ([
                "./backup/Device/AppX/Library/Caches/com.hackemist.SDImageCache/default/"
                    + Oracle.md5("https://a.example/new.png")
                    + ".png",
                "./go-build/README", "./tagged/CACHEDIR.TAG", "./tagged/sub/new.bin", "./tagged/sub/old.bin"
            ] + go).sorted(), run.out)
    }
}

/// pip's cache filled by this machine's pip from an index served on 127.0.0.1 with the
/// caching headers a real index sends, plus pip ≥ 23.3's `http-v2` layout written with pip's
/// own CacheControl serializer.
final class PipCacheEndToEndTests: XCTestCase {
    static let server = """
        import email.utils, http.server, io, os, sys, time, zipfile
        def wheel(name):
            b = io.BytesIO()
            with zipfile.ZipFile(b, 'w') as z:
                d = name + '-1.0.dist-info/'
                z.writestr(name + '/__init__.py', '')
                z.writestr(d + 'METADATA', 'Metadata-Version: 2.1\\nName: %s\\nVersion: 1.0\\n' % name)
                z.writestr(d + 'WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: \
        py3-none-any\\n')
                z.writestr(d + 'RECORD', '')
            return b.getvalue()
        files = {'/files/%s-1.0-py3-none-any.whl' % n: wheel(n) for n in ('demo', 'brief', 'tagged')}
        headers = {'demo': [('Cache-Control', 'max-age=31536000')], 'brief': [('Cache-Control', 'max-age=1')],
                   'tagged': [('Cache-Control', 'max-age=1'), ('ETag', '"v1"')]}
        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def do_GET(self):
                if self.path.startswith('/simple/'):
                    name = self.path.split('/')[2]
                    body = ('<a href="/files/%s-1.0-py3-none-any.whl">%s-1.0-py3-none-any.whl</a>' % (name, \
        name)).encode()
                    extra = [('Cache-Control', 'max-age=600'), ('Content-Type', 'text/html')]
                elif self.path in files:
                    body = files[self.path]
                    extra = headers[self.path.split('/')[2].split('-')[0]] + [('Content-Type', \
        'application/octet-stream')]
                else:
                    self.send_response(404); self.end_headers(); return
                self.send_response(200)
                for k, v in extra: self.send_header(k, v)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        s = http.server.HTTPServer(('127.0.0.1', 0), H)
        print(s.server_port, flush=True)
        s.serve_forever()
        """

    func testPipsOwnCacheByCacheControlsRules() throws {
        let tree = TestTree("pip")
        let cache = tree.dir("cache/pip")
        let server = Run.start(["python3", "-c", Self.server])
        let port = try XCTUnwrap(server.readLine())
        let env = [
            "PIP_CONFIG_FILE": "/dev/null", "PIP_FIND_LINKS": "", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PIP_NO_INPUT": "1"
        ]
        // pip caches plain-HTTP responses only from a trusted host (its secure adapter).
        func pip(_ args: [String]) -> RunResult {
            Run.command(
                ["python3", "-m", "pip", "--cache-dir", cache.description, "--trusted-host", "127.0.0.1"] + args,
                environment: env)
        }
        let base = "http://127.0.0.1:\(port)"
        for name in ["demo", "brief", "tagged"] {
            let r = pip([
                "download", "--no-deps", "-d", tree.path("dl-\(name)").description,
                "\(base)/files/\(name)-1.0-py3-none-any.whl"
            ])
            XCTAssertEqual(r.status, 0, r.err)
        }
        // pip ≥ 23.3's layout, written with pip's own serializer: metadata + .body.
        let v2 = Oracle.python(
            """
            import hashlib, os, sys, time, email.utils
            from pip._vendor.cachecontrol.serialize import Serializer
            from pip._vendor.urllib3 import HTTPResponse
            from pip._vendor.requests import Request
            root = sys.argv[1]
            def put(url, headers, body, with_body=True):
                h = hashlib.sha224(url.encode()).hexdigest()
                d = os.path.join(root, 'http-v2', *h[:5]); os.makedirs(d, exist_ok=True)
                resp = HTTPResponse(body=b'', headers=headers, status=200, preload_content=False)
                meta = Serializer().dumps(Request('GET', url).prepare(), resp, b'')
                open(os.path.join(d, h), 'wb').write(meta)
                if with_body: open(os.path.join(d, h + '.body'), 'wb').write(body)
                return os.path.join(d, h)
            now = email.utils.formatdate(time.time(), usegmt=True)
            put('https://files.example/fresh.whl', {'Date': now, 'Cache-Control': 'max-age=3600'}, b'x' * 100)
            lone = put('https://files.example/lone.whl', {'Date': now, 'Cache-Control': 'max-age=3600'}, b'', \
            with_body=False)
            os.utime(lone, (time.time() - 7200, time.time() - 7200))
            orphan = os.path.join(root, 'http-v2', 'a', 'b', 'c', 'd', 'e', 'abcde' + '0' * 51 + '.body')
            os.makedirs(os.path.dirname(orphan), exist_ok=True); open(orphan, 'wb').write(b'y' * 50)
            os.utime(orphan, (time.time() - 7200, time.time() - 7200))
            """, [cache.description])
        XCTAssertEqual(v2.status, 0, v2.err)
        sleep(2)  // the max-age=1 responses go stale

        XCTAssertEqual(CacheFormats.detect(cache), .pip)
        let format = try CacheFormats.open(cache)
        let entries = try format.entries(InspectionContext())
        let legacy = entries.filter { $0.path.description.contains("/http/") }
        XCTAssertEqual(
            legacy.filter { $0.state == .fresh }.count, 2,
            "the year-long wheel and the one with an ETag: \(legacy.map(\.reason))")
        XCTAssertEqual(legacy.filter { $0.state == .expired }.count, 1, "stale without an ETag: pip deletes it on read")
        let v2Entries = entries.filter { $0.path.description.contains("/http-v2/") }
        XCTAssertEqual(
            v2Entries.map(\.state.rawValue).sorted(), ["corrupted", "fresh", "orphan"],
            v2Entries.map(\.reason).description)
        XCTAssertEqual(v2Entries.first { $0.state == .fresh }?.companions.count, 1, "the .body goes with its metadata")

        let prune = Binary.run(["prune", cache.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        let left = try format.entries(InspectionContext())
        XCTAssertEqual(left.count, 3)
        XCTAssertTrue(left.allSatisfy { $0.state == .fresh })
        // pip itself still serves the cached wheel, with the index gone.
        server.kill()
        let offline = pip([
            "download", "--no-deps", "-d", tree.path("again").description, "\(base)/files/demo-1.0-py3-none-any.whl"
        ])
        XCTAssertEqual(offline.status, 0, offline.err)
    }

    /// A legacy `http/` entry holds the whole response body ahead of its headers (pip < 23.3,
    /// this machine's pip among them: a CUDA wheel is gigabytes; pip 23.3 moved bodies out of
    /// the metadata for that). `ls` and `prune` read the metadata and step over the body: here
    /// a 3 GiB body (pip's own serialization, its body's length raised over a hole in a sparse
    /// file) in 2 GiB of address space. Before, the whole file was read into memory: the
    /// binary stopped (SIGABRT) when it could not allocate it; unbounded, an entry of 1.5 GB
    /// took 9.7 s and 3.1 GB.
    func testALegacyEntryIsReadWithoutItsBody() throws {
        let tree = TestTree("pip-big")
        let cache = tree.dir("cache/pip")
        let made = Oracle.python(
            """
            import email.utils, hashlib, os, sys, time
            from pip._vendor.cachecontrol.serialize import Serializer
            from pip._vendor.urllib3 import HTTPResponse
            from pip._vendor.requests import Request
            root, size = sys.argv[1], int(sys.argv[2])
            url = 'https://files.example/torch-2.0-cp311-cp311-linux_x86_64.whl'
            h = hashlib.sha224(url.encode()).hexdigest()
            d = os.path.join(root, 'http', *h[:5]); os.makedirs(d)
            headers = {'Date': email.utils.formatdate(time.time(), usegmt=True), 'Cache-Control': 'max-age=3600'}
            placeholder = b'\\x01' * 16
            resp = HTTPResponse(body=b'', headers=headers, status=200, preload_content=False)
            meta = Serializer().dumps(Request('GET', url).prepare(), resp, placeholder)
            head, tail = meta.split(b'\\xc4\\x10' + placeholder)  # bin 8: the 16-byte body
            with open(os.path.join(d, h), 'wb') as f:
                f.write(head + b'\\xc6' + size.to_bytes(4, 'big'))  # bin 32: `size` bytes, a hole
                f.seek(size, 1)
                f.write(tail)
            """, [cache.description, String(3 << 30)])
        XCTAssertEqual(made.status, 0, made.err)
        for command in ["ls", "prune --dry-run"] {
            let run = Run.command([
                "sh", "-c", "ulimit -v 2097152; exec '\(Binary.path)' \(command) '\(cache.description)'"
            ])
            XCTAssertEqual(run.status, 0, command + ": " + String(run.err.suffix(500)))
            if command == "ls" {
                XCTAssertTrue(run.out.contains("fresh for another"), run.out)
            } else {
                XCTAssertTrue(run.out.contains("would free 0"), run.out + run.err)
            }
        }
    }
}

/// npm's cacache filled by this machine's npm (`npm cache add` of local tarballs), then
/// damaged as disks and interrupted writes damage it; after the prune `npm cache verify`
/// finds nothing to fix.
final class NpmCacheEndToEndTests: XCTestCase {
    func testCacacheByNpmCacheVerifysRules() throws {
        guard Run.available("npm") else { throw XCTSkip("npm is not installed") }
        let tree = TestTree("npm")
        let npmCache = tree.dir("npm")
        var tarballs: [RawPath] = []
        for name in ["alpha", "beta", "gamma", "delta"] {
            tree.file(
                "src/\(name)/package.json", contents: Array("{\"name\":\"\(name)-pkg\",\"version\":\"1.0.0\"}".utf8))
            tree.file("src/\(name)/index.js", contents: Array("module.exports = '\(name)'\n".utf8))
            let pack = Run.command(["sh", "-c", "cd '\(tree.path("src/\(name)").description)' && npm pack --silent"])
            XCTAssertEqual(pack.status, 0, pack.err)
            tarballs.append(tree.path("src/\(name)/\(name)-pkg-1.0.0.tgz"))
        }
        for tarball in tarballs {
            let add = Run.command(["npm", "cache", "add", "--cache", npmCache.description, tarball.description])
            XCTAssertEqual(add.status, 0, add.err)
        }
        let root = npmCache.appending("_cacache")
        XCTAssertEqual(CacheFormats.detect(root), .npm)
        let format = try CacheFormats.open(root)
        let before = try format.entries(InspectionContext(verify: true))
        XCTAssertEqual(before.filter { $0.url != nil }.count, 4, before.map(\.reason).description)
        XCTAssertTrue(before.allSatisfy { $0.state == .fresh }, before.map(\.reason).description)
        let keyed = before.filter { $0.url != nil }.sorted { $0.url! < $1.url! }  // alpha, beta, delta, gamma
        // beta's content flipped (same size), delta's content gone, an orphan, a temporary.
        let betaContent = keyed[1].companions[0].relativePath
        let deltaContent = keyed[2].companions[0].relativePath
        let flip = Oracle.python(
            "import sys; p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[10] ^= 0xff; open(p, 'wb').write(b)",
            [root.appending(betaContent).description])
        XCTAssertEqual(flip.status, 0, flip.err)
        XCTAssertTrue(FileIOProbe.remove(root.appending(deltaContent)))
        tree.file("npm/_cacache/content-v2/sha512/ab/cd/" + String(repeating: "e", count: 124), size: 3000)
        tree.setModified(
            "npm/_cacache/content-v2/sha512/ab/cd/" + String(repeating: "e", count: 124),
            secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)
        tree.file("npm/_cacache/tmp/a1b2c3", size: 500)
        tree.setModified("npm/_cacache/tmp/a1b2c3", secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)

        let after = try format.entries(InspectionContext(verify: true))
        let byURL = Dictionary(uniqueKeysWithValues: after.compactMap { e in e.url.map { ($0, e.state) } })
        XCTAssertEqual(byURL[keyed[0].url!], .fresh)
        XCTAssertEqual(byURL[keyed[1].url!], .corrupted, "content that does not match its integrity")
        XCTAssertEqual(byURL[keyed[2].url!], .corrupted, "an entry whose content is missing")
        XCTAssertEqual(after.filter { $0.state == .orphan }.count, 1)
        XCTAssertEqual(after.filter { $0.state == .incomplete }.count, 1)

        let prune = Binary.run(["prune", root.description, "--verify"])
        XCTAssertEqual(prune.status, 0, prune.err)
        let verify = Run.command(["npm", "cache", "verify", "--cache", npmCache.description])
        XCTAssertEqual(verify.status, 0, verify.err)
        XCTAssertTrue(verify.out.contains("Content verified: 2 "), verify.out)
        XCTAssertTrue(verify.out.contains("Index entries: 2"), verify.out)
        XCTAssertFalse(verify.out.contains("Content garbage-collected"), verify.out)
        XCTAssertFalse(verify.out.contains("Corrupted content removed"), verify.out)
        XCTAssertFalse(verify.out.contains("Missing content"), verify.out)
    }
}

extension NpmCacheEndToEndTests {
    /// Packages made under `src/` (a `data.txt` of `size` bytes each), each packed and added
    /// to the npm cache `cache` by this machine's npm: each tarball keyed twice.
    private func packAndAdd(_ names: [String], size: Int, _ tree: TestTree, into cache: RawPath) {
        for name in names {
            tree.file(
                "src/\(name)/package.json", contents: Array("{\"name\":\"\(name)-pkg\",\"version\":\"1.0.0\"}".utf8))
            tree.file("src/\(name)/data.txt", size: size)
            let add = Run.command(
                [
                    "sh", "-c",
                    "cd '\(tree.path("src/\(name)").description)' "
                        + "&& npm pack --silent --cache '\(cache.description)' "
                        + "&& npm cache add --cache '\(cache.description)' ./\(name)-pkg-1.0.0.tgz"
                ])
            XCTAssertEqual(add.status, 0, add.err)
        }
    }

    /// Content several keys name goes with the last of them: `npm pack` then `npm cache add`
    /// keys each tarball twice, and `clear` removed every key but kept the content (94 % of
    /// the bytes), which `npm cache verify` then garbage-collected; `prune --max-size` missed
    /// its target the same way.
    func testContentSeveralKeysNameGoesWithTheLastOfThem() throws {
        guard Run.available("npm") else { throw XCTSkip("npm is not installed") }
        let tree = TestTree("npm-shared")
        let npmCache = tree.dir("npm")
        packAndAdd(["alpha", "beta"], size: 100_000, tree, into: npmCache)
        let root = npmCache.appending("_cacache")
        XCTAssertEqual(
            Run.command(["sh", "-c", "find '\(root.description)' -type f -exec touch -d '2 days ago' {} +"]).status, 0)
        tree.dir("copy")
        let copy = tree.path("copy/_cacache")
        XCTAssertEqual(Run.command(["cp", "-a", root.description, copy.description]).status, 0)
        let shared = try CacheFormats.open(root).entries(InspectionContext()).filter(\.removedOnlyWhenNamed)
        XCTAssertFalse(shared.isEmpty, "no content several keys name: npm keyed each tarball once")
        func content(_ root: RawPath) -> String {
            Run.command(["sh", "-c", "cd '\(root.description)' && find content-v2 -type f | sort"]).out
        }
        // The plan counts the shared content as freed with the last key naming it.
        let dry = Binary.run(["prune", copy.description, "--max-size", "1K", "--dry-run"])
        XCTAssertTrue(dry.out.contains("after    0 entries, 0 "), dry.out)
        for (run, at) in [(["clear", root.description], root), (["prune", copy.description, "--max-size", "1K"], copy)]
        {
            let done = Binary.run(run)
            XCTAssertEqual(done.status, 0, done.err)
            XCTAssertEqual(content(at), "", done.out)
            let verify = Run.command(["npm", "cache", "verify", "--cache", at.parentDirectory.description])
            XCTAssertFalse(verify.out.contains("Content garbage-collected"), verify.out)
        }
    }
}

extension NpmCacheEndToEndTests {
    /// `npm config get cache` is `~/.npm`, the folder users name; npm keeps its cache in
    /// `_cacache` there, beside its logs and npx's installs. `prune ~/.npm` and `clear
    /// ~/.npm` were refused (naming `_cacache` instead); they now prune or clear that cache, by
    /// npm's rules, and nothing else in the folder, and prune reports its cap as the one given.
    func testPruningNpmsFolderPrunesItsCacheAndNothingElse() throws {
        guard Run.available("npm") else { throw XCTSkip("npm is not installed") }
        let tree = TestTree("npm-folder")
        let home = tree.dir("home")
        let npm = home.appending(".npm")
        packAndAdd(["alpha", "beta"], size: 50_000, tree, into: npm)
        tree.file("home/.npm/_npx/0123abcd/package.json", contents: Array("{}".utf8))
        XCTAssertEqual(
            Run.command(["sh", "-c", "find '\(npm.description)' -type f -exec touch -d '2 days ago' {} +"]).status, 0)
        func others(_ folder: RawPath) -> String {
            let find = "find . -path ./_cacache -prune -o -type f -print | sort"
            return Run.command(["sh", "-c", "cd '\(folder.description)' && \(find)"]).out
        }
        let othersBefore = others(npm)
        XCTAssertTrue(othersBefore.contains("./_logs/"), othersBefore)
        XCTAssertTrue(othersBefore.contains("./_npx/0123abcd/package.json"), othersBefore)
        let env = ["HOME": home.description, "XDG_CACHE_HOME": home.appending(".cache").description]
        tree.dir("copy")
        let copy = tree.path("copy/.npm")
        XCTAssertEqual(Run.command(["cp", "-a", npm.description, copy.description]).status, 0)

        let dry = Binary.run(["prune", npm.description, "--max-size", "1K", "--dry-run"], environment: env)
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertTrue(dry.out.hasPrefix("\(npm.appending("_cacache").escaped) (npm cache (cacache))"), dry.out)
        let pruned = Binary.run(["prune", npm.description, "--max-size", "1K"], environment: env)
        XCTAssertEqual(pruned.status, 0, pruned.err)
        XCTAssertTrue(pruned.out.contains("size (over --max-size 1K)"), pruned.out)
        XCTAssertTrue(pruned.out.contains("after    0 entries, 0 "), pruned.out)
        XCTAssertEqual(others(npm), othersBefore, "only the cache in the folder is pruned")
        let verify = Run.command(["npm", "cache", "verify", "--cache", npm.description])
        XCTAssertEqual(verify.status, 0, verify.err)
        XCTAssertTrue(verify.out.contains("Index entries: 0"), verify.out)
        XCTAssertFalse(verify.out.contains("Content garbage-collected"), verify.out)
        // `clear` of the folder clears its one cache, as `npm cache clean --force` removes it.
        let clear = Binary.run(["clear", copy.description], environment: env)
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertEqual(others(copy), othersBefore, "only the cache in the folder is cleared")
        let verifyCopy = Run.command(["npm", "cache", "verify", "--cache", copy.description])
        XCTAssertTrue(verifyCopy.out.contains("Index entries: 0"), verifyCopy.out)
        XCTAssertFalse(verifyCopy.out.contains("Content garbage-collected"), verifyCopy.out)
    }
}

/// ccache's cache filled by this machine's ccache, pruned by cachectl and, on a copy, cleaned
/// by ccache itself at the same limit (`ccache -c`, which trims each subdirectory to its full
/// share, so `--trim-to 1`; its automatic cleanup stops at limit_multiple of it, cachectl's
/// default): the same entries survive.
final class CcacheEndToEndTests: XCTestCase {
    /// With `hard_link` (or `file_clone`), ccache ≤ 4.12 keeps an object file beside its
    /// result, named after it with one digit and `W` (`<digest><n>W`, LocalStorage.cpp
    /// `get_raw_file_path`). A digest that itself ends in digits lost its object file: the raw
    /// file was taken for no entry's, "no 0xccac magic", and deleted as corrupted once past the
    /// grace period (about 3 in 10 results missed afterwards).
    func testObjectFilesKeptBesideResultsStayWithThem() throws {
        guard Run.available("ccache"), Run.available("gcc") else { throw XCTSkip("ccache or gcc is not installed") }
        let tree = TestTree("ccache-raw")
        let cache = tree.dir("cache/ccache")
        let env = ["CCACHE_DIR": cache.description, "CCACHE_NOHASHDIR": "1", "CCACHE_HARDLINK": "1"]
        func compileAll() {
            for i in 0..<40 {
                let cc = Run.command(
                    [
                        "ccache", "gcc", "-c", tree.path("src/f\(i).c").description, "-o",
                        tree.path("src/f\(i).o").description
                    ], environment: env)
                XCTAssertEqual(cc.status, 0, cc.err)
            }
        }
        for i in 0..<40 { tree.file("src/f\(i).c", contents: Array("int f\(i)(int x) { return x * \(i); }\n".utf8)) }
        compileAll()
        let raws = Run.command(["sh", "-c", "cd '\(cache.description)' && find . -type f -name '*W' | sort"]).out
        XCTAssertEqual(raws.split(separator: "\n").count, 40, raws)
        // Some digest ends in a digit (10 of base32hex's 32; all 40 not: about 3 in 10 million).
        XCTAssertTrue(raws.split(separator: "\n").contains { $0.dropLast(2).last?.isNumber == true }, raws)
        XCTAssertEqual(
            Run.command(["sh", "-c", "find '\(cache.description)' -type f -exec touch -d '2 hours ago' {} +"]).status, 0
        )
        let prune = Binary.run(["prune", cache.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(
            Run.command(["sh", "-c", "cd '\(cache.description)' && find . -type f -name '*W' | sort"]).out, raws,
            prune.out)
        XCTAssertEqual(Run.command(["ccache", "-z"], environment: env).status, 0)
        compileAll()
        let stats = Run.command(["ccache", "--print-stats"], environment: env).out
        XCTAssertTrue(stats.contains("direct_cache_hit\t40\n"), stats)
    }

    func testCleanupAsCcacheItselfDoesIt() throws {
        guard Run.available("ccache"), Run.available("gcc") else { throw XCTSkip("ccache or gcc is not installed") }
        let tree = TestTree("ccache")
        let cache = tree.dir("cache/ccache")
        let env = ["CCACHE_DIR": cache.description, "CCACHE_NOHASHDIR": "1"]
        for i in 0..<48 {
            // Sizes vary: an array of i × 200 ints.
            tree.file(
                "src/f\(i).c",
                contents: Array("int data\(i)[\(i * 200 + 1)] = {\(i)}; int f\(i)(int x) { return x * \(i); }\n".utf8))
            let cc = Run.command(
                [
                    "ccache", "gcc", "-c", tree.path("src/f\(i).c").description, "-o",
                    tree.path("src/f\(i).o").description
                ], environment: env)
            XCTAssertEqual(cc.status, 0, cc.err)
        }
        // Distinct last uses, in an order unrelated to the names.
        let listed = Run.command(["sh", "-c", "cd '\(cache.description)' && find . -type f -name '*[RMW]' | sort"]).out
            .split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(listed.count, 48)
        let now = Int(FileTime.now.timeInterval)
        for (i, file) in listed.enumerated() {
            tree.setModified(
                "cache/ccache/\(file.dropFirst(2))", secondsSinceEpoch: now - ((i * 37) % listed.count) * 60 - 60)
        }
        XCTAssertEqual(CacheFormats.detect(cache), .ccache)
        func bookkeeping(_ root: RawPath) -> [String] {
            Run.command([
                "sh", "-c",
                "cd '\(root.description)' && find . -name stats -o -name CACHEDIR.TAG -o -name .cleaned | sort"
            ]).out
                .split(separator: "\n").map(String.init)
        }
        let bookkeepingBefore = bookkeeping(cache)
        XCTAssertFalse(bookkeepingBefore.isEmpty)
        let copy = tree.path("copy")
        XCTAssertEqual(Run.command(["cp", "-a", cache.description, copy.description]).status, 0)

        let limitKi = 64
        let prune = Binary.run(["prune", cache.description, "--max-size", "\(limitKi * 1024)", "--trim-to", "1"])
        XCTAssertEqual(prune.status, 0, prune.err)
        // The ratio applied is the one given, and the report says so (it named ccache's 0.8).
        XCTAssertTrue(prune.out.contains("(--trim-to 1 in place of its ratio)"), prune.out)
        let ccacheEnv = ["CCACHE_DIR": copy.description]
        XCTAssertEqual(Run.command(["ccache", "-M", "\(limitKi)Ki"], environment: ccacheEnv).status, 0)
        let clean = Run.command(["ccache", "-c"], environment: ccacheEnv)
        XCTAssertEqual(clean.status, 0, clean.err)

        func entries(_ root: RawPath) -> [String] {
            Run.command(["sh", "-c", "cd '\(root.description)' && find . -type f -name '*[RMW]' | sort"]).out.split(
                separator: "\n"
            ).map(String.init)
        }
        let ours = entries(cache)
        let theirs = entries(copy)
        XCTAssertLessThan(ours.count, listed.count, "the limit made both trim")
        XCTAssertEqual(ours, theirs, prune.out)
        // ccache's bookkeeping is intact (every stats file and tag it had) and it still works.
        XCTAssertEqual(bookkeeping(cache), bookkeepingBefore)
        XCTAssertEqual(Run.command(["ccache", "-s"], environment: env).status, 0)
        let again = Run.command(
            ["ccache", "gcc", "-c", tree.path("src/f1.c").description, "-o", tree.path("src/again.o").description],
            environment: env)
        XCTAssertEqual(again.status, 0, again.err)

        // A surviving entry with one byte flipped: its checksum no longer holds (--verify).
        let survivor = try XCTUnwrap(ours.first { $0.hasSuffix("R") })
        let flip = Oracle.python(
            """
            import os, sys, time; p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[40] ^= 1; open(p, \
            'wb').write(b); os.utime(p, (time.time() - 7200, time.time() - 7200))
            """,
            [cache.appending(String(survivor.dropFirst(2))).description])
        XCTAssertEqual(flip.status, 0, flip.err)
        let format = try CacheFormats.open(cache)
        XCTAssertEqual(
            try format.entries(InspectionContext()).first { $0.path.description.hasSuffix(survivor.dropFirst(1)) }?
                .state, .fresh,
            "only the magic is read without --verify")
        XCTAssertEqual(
            try format.entries(InspectionContext(verify: true)).first {
                $0.path.description.hasSuffix(survivor.dropFirst(1))
            }?.state, .corrupted)
    }

    /// `--verify` checks a ccache entry's XXH3-128 and a Go output's SHA-256 reading each file
    /// 64 KiB at a time. Here each is 400 MB (a hole in a sparse file) in 290 MB of address
    /// space: the ccache entry's checksum is wrong, the Go output's name its right hash. Each
    /// was read whole before: SIGABRT (as npm's content, hashed by the same function as Go's).
    func testVerifyReadsLargeEntriesAChunkAtATime() throws {
        let tree = TestTree("verify-large")
        let ccache = tree.dir("ccache")
        tree.file("ccache/ccache.conf", contents: [])
        let go = tree.dir("go-build")
        tree.file(
            "go-build/README",
            contents: Array("This directory holds cached build artifacts from the Go build system.\n".utf8))
        let made = Oracle.python(
            """
            import hashlib, os, sys
            ccache, go, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
            os.makedirs(os.path.join(ccache, 'a', 'b'))
            entry = os.path.join(ccache, 'a', 'b', '0123456789abcdef0123456789abcdR')
            with open(entry, 'wb') as f:
                f.write(b'\\xcc\\xac'); f.seek(size, 1); f.write(b'not its checksum')
            h = hashlib.sha256()
            zeros = bytes(1 << 20)
            for _ in range(size >> 20): h.update(zeros)
            output = h.hexdigest()
            action = hashlib.sha256(b'link').hexdigest()
            for name in (action, output): os.makedirs(os.path.join(go, name[:2]), exist_ok=True)
            with open(os.path.join(go, output[:2], output + '-d'), 'wb') as f: f.truncate(size)
            with open(os.path.join(go, action[:2], action + '-a'), 'w') as f:
                f.write('v1 %s %s %20d %20d\\n' % (action, output, size, 1700000000000000000))
            old = 1e9
            os.utime(entry, (old, old))
            """, [ccache.description, go.description, String(400 << 20)])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertEqual(CacheFormats.detect(ccache), .ccache)
        XCTAssertEqual(CacheFormats.detect(go), .gobuild)
        for (root, expected) in [(ccache, "its XXH3-128 checksum does not match"), (go, "fresh")] {
            let run = Run.command([
                "sh", "-c", "ulimit -v 290000; exec '\(Binary.path)' ls --verify '\(root.description)'"
            ])
            XCTAssertEqual(run.status, 0, String(run.err.suffix(500)))
            XCTAssertTrue(run.out.contains(expected), run.out)
        }
    }
}

/// The Hugging Face hub cache laid out as huggingface_hub writes it; after the prune the
/// library's own `scan_cache_dir` finds every remaining revision whole.
final class HuggingFaceEndToEndTests: XCTestCase {
    /// A blob two revisions link goes with the last of them: `clear` removed both revisions
    /// and kept the blob ("it goes with the last of them"), and `prune --max-size` missed its
    /// target by it; the hub's `delete_revisions` deletes a blob once no revision left links it.
    func testABlobSeveralRevisionsLinkGoesWithTheLastOfThem() throws {
        let tree = TestTree("hf-shared")
        let hub = tree.dir("hub")
        let made = Oracle.python(
            """
            import os, sys, time
            hub = sys.argv[1]
            repo = os.path.join(hub, 'models--org--m')
            def blob(etag, size):
                os.makedirs(os.path.join(repo, 'blobs'), exist_ok=True)
                open(os.path.join(repo, 'blobs', etag), 'wb').write(os.urandom(size))
            def link(commit, path, etag):
                p = os.path.join(repo, 'snapshots', commit, path); os.makedirs(os.path.dirname(p), exist_ok=True)
                os.symlink(os.path.join('..', '..', 'blobs', etag), p)
            blob('big', 200000); blob('c1', 100); blob('c2', 100)
            for commit, name in [('1' * 40, 'main'), ('2' * 40, 'v1')]:
                link(commit, 'weights.bin', 'big'); link(commit, 'config.json', 'c' + commit[0])
                os.makedirs(os.path.join(repo, 'refs'), exist_ok=True)
                open(os.path.join(repo, 'refs', name), 'w').write(commit)
            old = time.time() - 3 * 86400
            for d, _, files in os.walk(hub):
                for f in files: os.utime(os.path.join(d, f), (old, old), follow_symlinks=False)
            """, [hub.description])
        XCTAssertEqual(made.status, 0, made.err)
        tree.dir("copy")
        let copy = tree.path("copy/hub")
        XCTAssertEqual(Run.command(["cp", "-a", hub.description, copy.description]).status, 0)
        func left(_ root: RawPath) -> String {
            Run.command(["sh", "-c", "cd '\(root.description)' && find . ! -type d | sort"]).out
        }
        let clear = Binary.run(["clear", hub.description])
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertEqual(left(hub), "", clear.out)
        let prune = Binary.run(["prune", copy.description, "--max-size", "100K"])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(left(copy), "", prune.out)
        XCTAssertTrue(prune.out.contains("orphan ") && prune.out.contains("after    0 entries, 0"), prune.out)
    }

    /// huggingface_hub 2.x moves Xet downloads into a store shared by the whole cache
    /// (`<hub>/blobs/<xx>/<hash>`, a repository's blob a symlink to it, a `.refs` manifest
    /// beside it), built here by the library's own functions. cachectl counted none of it:
    /// `ls` gave 3 entries of 8 KiB for 1.2 MB, a trim deleted revisions for nothing, and
    /// `clear` left every payload. Now the payloads are entries, freed with the last blob that
    /// links them, swept by the hub's rule under the hub's lock, and a payload without a
    /// manifest stays as the hub leaves it.
    func testTheSharedXetStoreIsCountedAndSweptByTheHubsRule() throws {
        guard Oracle.python("import huggingface_hub.utils._shared_blobs").status == 0 else {
            throw XCTSkip("huggingface_hub 2.x is not installed (Scripts/test-deps installs it)")
        }
        let tree = TestTree("hf-xet")
        let made = Oracle.python(Self.xetHub, [tree.path("prune").description, tree.path("clear").description])
        XCTAssertEqual(made.status, 0, made.err)
        // a, b, orphan, no manifest, f's (gone)
        let payloads = made.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(payloads.count, 5, made.out)
        let hub = tree.path("prune")
        func left(_ root: RawPath) -> [String] {
            Run.command(["sh", "-c", "cd '\(root.description)' && find . ! -type d ! -name '*.lock' | sort"]).out
                .split(separator: "\n").map(String.init)
        }

        // Every payload is an entry: the sizes are the hub's.
        let listed = Binary.run(["ls", hub.description, "--json"])
        XCTAssertEqual(listed.status, 0, listed.err)
        for payload in payloads.prefix(4) { XCTAssertTrue(listed.out.contains(payload), listed.out) }
        XCTAssertTrue(listed.out.contains("1 link to a missing blob"), listed.out)

        // The trim frees the payload of the two least recently used repositories (a's, which c
        // links too), so b stays; the orphan payload goes; the one without a manifest stays.
        let prune = Binary.run(["prune", hub.description, "--max-size", "900K", "--trim-to", "1"])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(
            left(hub),
            [
                "./blobs/.huggingface-shared-blobs", "./blobs/\(payloads[1].prefix(2))/\(payloads[1])",
                "./blobs/\(payloads[1].prefix(2))/\(payloads[1]).refs",
                "./blobs/\(payloads[3].prefix(2))/\(payloads[3])",
                "./blobs/\(payloads[4].prefix(2))/\(payloads[4]).refs",
                "./models--org--b/blobs/c2222", "./models--org--b/blobs/w2222", "./models--org--b/refs/main",
                "./models--org--b/snapshots/\(String(repeating: "2", count: 40))/config.json",
                "./models--org--b/snapshots/\(String(repeating: "2", count: 40))/weights.bin"
            ].sorted(), prune.out)
        XCTAssertTrue(prune.out.contains("after    3 entries"), prune.out)
        // The hub's own view: no warning, nothing unreferenced, b readable offline.
        XCTAssertEqual(Oracle.python(Self.xetCheck, [hub.description]).out, "[] {} True False\n")

        // Under the hub's lock, a payload stays: clear fails for it and says why.
        let clearHub = tree.path("clear")
        let lock = "\(clearHub.description)/blobs/\(payloads[1].prefix(2))/\(payloads[1]).lock"
        let holder = Run.start([
            "python3", "-c",
            "import fcntl,os,sys,time; fd=os.open(sys.argv[1],os.O_WRONLY|os.O_CREAT,0o666); "
                + "fcntl.flock(fd,fcntl.LOCK_EX); print('locked',flush=True); time.sleep(60)",
            lock
        ])
        XCTAssertEqual(holder.readLine(), "locked")
        let busy = Binary.run(["clear", clearHub.description])
        holder.kill()
        XCTAssertNotEqual(busy.status, 0, busy.out)
        XCTAssertTrue(busy.err.contains("in use: another process holds its owner's lock"), busy.err)
        XCTAssertTrue(left(clearHub).contains("./blobs/\(payloads[1].prefix(2))/\(payloads[1])"))
        let clear = Binary.run(["clear", clearHub.description])
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertEqual(
            left(clearHub),
            [
                "./blobs/.huggingface-shared-blobs", "./blobs/\(payloads[3].prefix(2))/\(payloads[3])",
                "./blobs/\(payloads[4].prefix(2))/\(payloads[4]).refs"
            ].sorted(),
            clear.out)
    }

    /// A repository folder that is a symlink (moved to another disk) is not entered, but the
    /// hub follows it: a payload whose manifest names a blob there must stay, though no
    /// repository the scan entered links it. `clear` deleted it before `mayHold`.
    func testAPayloadLinkedThroughASymlinkedRepositoryStays() throws {
        let tree = TestTree("hf-xet-moved")
        let (hub, payloads) = try Self.makeXetHub(tree)
        // Moved, with its links made absolute (relative ones would now point nowhere).
        let moved = Oracle.python(
            """
            import os, sys
            hub, to = sys.argv[1], sys.argv[2]
            os.rename(os.path.join(hub, 'models--org--b'), to)
            os.symlink(to, os.path.join(hub, 'models--org--b'))
            for name in os.listdir(os.path.join(to, 'blobs')):
                p = os.path.join(to, 'blobs', name)
                if os.path.islink(p):
                    target = os.path.normpath(os.path.join(hub, 'models--org--b', 'blobs', os.readlink(p)))
                    os.unlink(p); os.symlink(target, p)
            """, [hub.description, tree.path("b").description])
        XCTAssertEqual(moved.status, 0, moved.err)
        let clear = Binary.run(["clear", hub.description])
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertTrue(
            Run.command(["test", "-f", "\(hub.description)/blobs/\(payloads[1].prefix(2))/\(payloads[1])"])
                .status == 0, clear.out)
        XCTAssertTrue(Oracle.python(Self.xetCheck, [hub.description]).out.contains("True False"))
    }

    /// The hub's lock file is opened for writing before it is locked: a FIFO planted in its
    /// place held that open (and the prune) until a reader came. Now the orphan payload it
    /// guards is kept and reported, and the prune ends.
    func testALockThatIsNotAFileKeepsItsPayload() throws {
        let tree = TestTree("hf-xet-fifo")
        let (hub, payloads) = try Self.makeXetHub(tree)
        let orphan = payloads[2]
        let payload = "\(hub.description)/blobs/\(orphan.prefix(2))/\(orphan)"
        XCTAssertEqual(Run.command(["sh", "-c", "rm -f '\(payload).lock' && mkfifo '\(payload).lock'"]).status, 0)
        let prune = Run.command(["timeout", "60", Binary.path, "prune", hub.description])
        XCTAssertEqual(prune.status, 1, prune.out + prune.err)
        XCTAssertTrue(prune.err.contains("is not a regular file") || prune.err.contains("cannot be opened"), prune.err)
        XCTAssertEqual(Run.command(["test", "-f", payload]).status, 0)
    }

    /// One hub of `xetHub` at `hub/` of the tree, and its payloads' hashes; skipped where
    /// huggingface_hub 2.x is missing.
    static func makeXetHub(_ tree: TestTree) throws -> (hub: RawPath, payloads: [String]) {
        guard Oracle.python("import huggingface_hub.utils._shared_blobs").status == 0 else {
            throw XCTSkip("huggingface_hub 2.x is not installed (Scripts/test-deps installs it)")
        }
        let hub = tree.path("hub")
        let made = Oracle.python(Self.xetHub, [hub.description])
        XCTAssertEqual(made.status, 0, made.err)
        let payloads = made.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(payloads.count, 5, made.out)
        return (hub, payloads)
    }

    /// Two copies of a hub whose Xet files are in the shared store, made by
    /// huggingface_hub's `publish_blob_to_shared_store` and `try_link_from_shared_store`:
    /// repositories a, b and c (c links a's payload), an orphan payload (its blob gone), one
    /// without its manifest, and f, whose payload is gone; a used 5 days ago, c 4, b 3. Prints
    /// the payloads' hashes.
    static let xetHub = """
        import hashlib, os, shutil, sys, time
        from huggingface_hub.utils import _shared_blobs as sb
        big = [os.urandom(300000) for _ in range(5)]
        def xet(data): return hashlib.sha256(b'xet' + data).hexdigest()
        for hub in sys.argv[1:]:
            os.makedirs(hub)
            def blob(repo, etag, data):
                p = os.path.join(hub, repo, 'blobs', etag); os.makedirs(os.path.dirname(p), exist_ok=True)
                open(p, 'wb').write(data); return p
            def link(repo, commit, path, etag):
                p = os.path.join(hub, repo, 'snapshots', commit, path); os.makedirs(os.path.dirname(p), exist_ok=True)
                os.symlink(os.path.relpath(os.path.join(hub, repo, 'blobs', etag), os.path.dirname(p)), p)
            def publish(repo, etag, data):
                p = blob(repo, etag, data)
                assert sb.publish_blob_to_shared_store(
                    blob_path=p, xet_hash=xet(data), cache_dir=hub, expected_size=len(data))
            def reuse(repo, etag, data):
                p = blob(repo, etag, b'')
                assert sb.try_link_from_shared_store(
                    blob_path=p, xet_hash=xet(data), cache_dir=hub, expected_size=len(data))
            def ref(repo, commit):
                os.makedirs(os.path.join(hub, repo, 'refs'))
                open(os.path.join(hub, repo, 'refs', 'main'), 'w').write(commit)
            for repo, commit, data, own in [('a', '1', big[0], 1), ('b', '2', big[1], 1), ('c', '3', big[0], 0)]:
                repo, commit = 'models--org--' + repo, commit * 40
                (publish if own else reuse)(repo, 'w' + commit[:4], data)
                link(repo, commit, 'weights.bin', 'w' + commit[:4]); ref(repo, commit)
                blob(repo, 'c' + commit[:4], b'{}'); link(repo, commit, 'config.json', 'c' + commit[:4])
            publish('models--org--d', 'wd', big[2]); shutil.rmtree(os.path.join(hub, 'models--org--d'))
            publish('models--org--e', 'we', big[3]); shutil.rmtree(os.path.join(hub, 'models--org--e'))
            os.unlink(str(sb.shared_blob_manifest_path(hub, xet(big[3]))))
            # f's payload is gone (its manifest stays): a revision the hub's scan calls corrupted.
            repo, commit = 'models--org--f', '6' * 40
            publish(repo, 'w6666', big[4]); link(repo, commit, 'weights.bin', 'w6666'); ref(repo, commit)
            os.unlink(str(sb.shared_blob_path(hub, xet(big[4]))))
            now = time.time()
            for d, dirs, files in os.walk(hub):
                for f in files + dirs:
                    p = os.path.join(d, f)
                    days = 5 if 'org--a' in p else 4 if 'org--c' in p else 3 if 'org--b' in p else 7
                    os.utime(p, (now - 86400 * days, now - 86400 * days), follow_symlinks=False)
            for data, days in [(big[0], 4), (big[1], 3)]:
                os.utime(sb.shared_blob_path(hub, xet(data)), (now - 86400 * days, now - 86400 * 7))
        print('\\n'.join(xet(data) for data in big))
        """

    /// The hub's view of a cache: its scan's warnings, the payloads nothing references, and
    /// whether b's and a's weights are found offline.
    static let xetCheck = """
        import sys
        from huggingface_hub import scan_cache_dir, try_to_load_from_cache
        from huggingface_hub.utils import _shared_blobs as sb
        hub = sys.argv[1]
        info = scan_cache_dir(hub)
        def found(repo): return isinstance(try_to_load_from_cache(repo, 'weights.bin', cache_dir=hub), str)
        print([str(w) for w in info.warnings], sb.unreferenced_shared_blobs(hub), found('org/b'), found('org/a'))
        """

    func testRevisionsAreUnitsAndSharedBlobsStay() throws {
        let tree = TestTree("hf")
        let hub = tree.dir("cache/huggingface/hub")
        let made = Oracle.python(
            """
            import os, sys, time
            hub = sys.argv[1]
            old = time.time() - 7200
            def blob(repo, etag, size, mtime=None):
                p = os.path.join(hub, repo, 'blobs', etag); os.makedirs(os.path.dirname(p), exist_ok=True)
                open(p, 'wb').write(os.urandom(size))
                if mtime: os.utime(p, (mtime, mtime))
            def link(repo, commit, path, etag):
                p = os.path.join(hub, repo, 'snapshots', commit, path); os.makedirs(os.path.dirname(p), exist_ok=True)
                os.symlink(os.path.relpath(os.path.join(hub, repo, 'blobs', etag), os.path.dirname(p)), p)
            def ref(repo, name, commit):
                p = os.path.join(hub, repo, 'refs', name); os.makedirs(os.path.dirname(p), exist_ok=True)
                open(p, 'w').write(commit)
            a, b = 'models--org--a', 'datasets--org--b'
            c1, c2, d1 = '1' * 40, '2' * 40, '3' * 40
            for etag, size in [('e1', 300), ('e2', 5000), ('e3', 7000), ('e4', 100)]: blob(a, etag, size)
            blob(a, 'e5.abcd1234.incomplete', 2000, old)
            blob(a, 'e6', 900, old)
            link(a, c1, 'config.json', 'e1'); link(a, c1, 'model.bin', 'e2')
            link(a, c2, 'config.json', 'e1'); link(a, c2, 'model.bin', 'e3'); link(a, c2, 'sub/x.txt', 'e4')
            ref(a, 'main', c2)
            blob(b, 'f1', 100)
            link(b, d1, 'data.csv', 'gone'); link(b, d1, 'ok.csv', 'f1')
            ref(b, 'main', d1)
            # A file the hub found missing at d1 (hf_hub_download after a 404).
            os.makedirs(os.path.join(hub, b, '.no_exist', d1))
            open(os.path.join(hub, b, '.no_exist', d1, 'x.txt'), 'w').close()
            # A link to a file outside blobs/ that is there: valid to the hub's scan.
            outside = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(hub))), 'notes.txt')
            open(outside, 'w').write('mine')
            os.symlink(outside, os.path.join(hub, a, 'snapshots', c2, 'notes.txt'))
            os.makedirs(os.path.join(hub, '.locks', a)); open(os.path.join(hub, '.locks', a, 'e1.lock'), 'w').close()
            open(os.path.join(hub, 'CACHEDIR.TAG'), 'w').write('Signature: 8a477f597d28d172789f06886806bc55\\n')
            """, [hub.description])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertEqual(CacheFormats.detect(hub), .huggingface)
        let entries = try CacheFormats.open(hub).entries(InspectionContext())
        let revisions = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.url.map { ($0, e) } })
        XCTAssertEqual(revisions["models--org--a@" + String(repeating: "2", count: 40)]?.state, .fresh)
        XCTAssertEqual(revisions["models--org--a@" + String(repeating: "1", count: 40)]?.state, .expired, "detached")
        XCTAssertEqual(
            revisions["models--org--a@" + String(repeating: "1", count: 40)]?.companions.count, 1, "only e2 is its own")
        XCTAssertEqual(revisions["datasets--org--b@" + String(repeating: "3", count: 40)]?.state, .corrupted)

        // Pruned as part of ~/.cache: discovered two levels down.
        let cache = tree.path("cache")
        let prune = Binary.run(
            ["prune", cache.description],
            environment: ["XDG_CACHE_HOME": cache.description, "HOME": tree.root.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        let left = Run.command(["sh", "-c", "cd '\(hub.description)' && find . ! -type d | sort"]).out.split(
            separator: "\n"
        ).map(String.init)
        // The corrupted revision went with the blob only it linked and the file the hub
        // found missing at it; its repository, left with no revision, went whole (the marker
        // kept it, without `snapshots/`, which the hub's scan reports as corrupted). A link
        // to a file outside the blobs that is there breaks nothing (its revision was deleted
        // as corrupted).
        XCTAssertFalse(Run.command(["test", "-e", hub.appending("datasets--org--b").description]).status == 0)
        XCTAssertEqual(
            left,
            [
                "./.locks/models--org--a/e1.lock", "./CACHEDIR.TAG",
                "./models--org--a/blobs/e1", "./models--org--a/blobs/e3", "./models--org--a/blobs/e4",
                "./models--org--a/refs/main",
                "./models--org--a/snapshots/\(String(repeating: "2", count: 40))/config.json",
                "./models--org--a/snapshots/\(String(repeating: "2", count: 40))/model.bin",
                "./models--org--a/snapshots/\(String(repeating: "2", count: 40))/notes.txt",
                "./models--org--a/snapshots/\(String(repeating: "2", count: 40))/sub/x.txt"
            ], prune.out)
        XCTAssertEqual(try FileIOProbe.read(tree.path("notes.txt")), Array("mine".utf8))
        // The owner's own scanner: one whole revision left, no warnings.
        let hasHub = Oracle.python("import huggingface_hub").status == 0
        guard hasHub else { throw XCTSkip("huggingface_hub is not installed: its scan is not compared") }
        let scan = Oracle.python(
            """
            import sys
            from huggingface_hub import scan_cache_dir
            info = scan_cache_dir(sys.argv[1])
            print([str(w) for w in info.warnings])
            print(sorted((r.repo_id, rev.commit_hash, len(rev.files)) for r in info.repos for rev in r.revisions))
            """, [hub.description])
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertEqual(scan.out, "[]\n[('org/a', '\(String(repeating: "2", count: 40))', 4)]\n", scan.err)
    }
}

/// A simple cache this machine's Chromium filled (headless, from a site on 127.0.0.1), then
/// damaged: entries whose CRC or end record is wrong are corrupted, doomed files go, and
/// Chromium still loads the site from that cache afterwards.
final class ChromiumCacheEndToEndTests: XCTestCase {
    /// A server on 127.0.0.1 of the files in `site`, each cacheable for an hour; `also` adds
    /// methods to its handler (Python, indented as a method of it). Its port, once it listens.
    /// Python that reads the Chromium index in folder `sys.argv[1]` (its CRC checked): `raw`,
    /// and its entry `count` (entries from byte 40, 24 bytes each).
    private static let readIndex = """
        import os, re, struct, sys, time, zlib
        d = sys.argv[1]
        raw = open(os.path.join(d, 'index-dir', 'the-real-index'), 'rb').read()
        size, crc = struct.unpack_from('<II', raw, 0)
        assert size == len(raw) - 8 and zlib.crc32(raw[8:]) == crc, 'index damaged'
        magic, version, count = struct.unpack_from('<QIQ', raw, 8)

        """

    private func serve(_ site: RawPath, also: String = "") throws -> (Background, String) {
        let server = Run.start([
            "python3", "-c",
            """
            import functools, gzip, http.server, sys
            class H(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *a): pass
                def end_headers(self):
                    self.send_header('Cache-Control', 'max-age=3600'); super().end_headers()
            \(also)
            s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(H, directory=sys.argv[1]))
            print(s.server_port, flush=True)
            s.serve_forever()
            """, site.description
        ])
        return (server, try XCTUnwrap(server.readLine()))
    }

    func testSimpleCacheByItsEndRecordsAndCRCs() throws {
        guard let chromium = ["chromium", "chromium-browser"].first(where: Run.available) else {
            throw XCTSkip("Chromium is not installed")
        }
        let tree = TestTree("chromium")
        let site = tree.dir("site")
        var body = "<html><body>"
        for i in 0..<5 {
            tree.file("site/i\(i).png", contents: Images.png)
            tree.file(
                "site/s\(i).js", contents: Array("var v\(i) = '\(String(repeating: "x", count: i * 300))';\n".utf8))
            body += "<img src=\"i\(i).png\"><script src=\"s\(i).js\"></script>"
        }
        body += "<script src=\"gz.js\"></script>"
        tree.file("site/index.html", contents: Array((body + "done</body></html>").utf8))
        let (server, port) = try serve(
            site,
            also: """
                    def do_GET(self):
                        if self.path != '/gz.js': return super().do_GET()
                        coded = gzip.compress(b'var gz = 1;\\n')
                        self.send_response(200); self.send_header('Content-Type', 'text/javascript')
                        self.send_header('Content-Encoding', 'gzip')
                        self.send_header('Content-Length', str(len(coded)))
                        self.end_headers(); self.wfile.write(coded)
                """)
        func browse() -> RunResult {
            Run.command([
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(tree.path("profile").description)",
                "--disk-cache-dir=\(tree.path("dc").description)",
                "--dump-dom", "http://127.0.0.1:\(port)/index.html"
            ])
        }
        let first = browse()
        XCTAssertTrue(first.out.contains("done"), first.err)
        let root = tree.path("dc/Default/Cache/Cache_Data")
        XCTAssertEqual(CacheFormats.detect(root), .chromium)
        let format = try CacheFormats.open(root)
        let entries = try format.entries(InspectionContext())
        let byURL = Dictionary(entries.compactMap { e in e.url.map { ($0, e) } }) { a, _ in a }
        XCTAssertGreaterThanOrEqual(byURL.count, 11, entries.map(\.reason).description)
        XCTAssertTrue(entries.allSatisfy { $0.state == .fresh }, entries.map(\.reason).description)
        try assertBodiesAreReadOut(root, site: tree.path("site"), port: port, tree: tree)
        // Chromium keeps a body as it came: a gzip-coded one is refused by name, not written coded.
        let coded = Binary.run(["cat", "http://127.0.0.1:\(port)/gz.js", "--cache", root.description])
        XCTAssertEqual(coded.status, 1, coded.out)
        XCTAssertTrue(coded.err.contains("stored as the server coded it (Content-Encoding: gzip)"), coded.err)

        // One entry's body flipped, one cut short, both written two hours ago; a doomed file.
        let flipped = try XCTUnwrap(byURL["http://127.0.0.1:\(port)/s3.js"])
        let cut = try XCTUnwrap(byURL["http://127.0.0.1:\(port)/i2.png"])
        let damage = Oracle.python(
            """
            import os, sys, time
            a, b = sys.argv[1], sys.argv[2]
            data = bytearray(open(a, 'rb').read()); data[24 + int.from_bytes(data[12:16], 'little') + 2] ^= 0xff; \
            open(a, 'wb').write(data)
            data = open(b, 'rb').read(); open(b, 'wb').write(data[:-10])
            for p in (a, b): os.utime(p, (time.time() - 7200, time.time() - 7200))
            # Doomed files and stream files without their _0: two hours old, and just written
            # (a running browser may still read or be writing them: within the grace period).
            d = os.path.dirname(a)
            for name, age in [('todelete_00000000000000aa_0_1', 7200), ('todelete_00000000000000bb_0_1', 0),
                              ('00000000000000cc_s', 7200), ('00000000000000dd_s', 0)]:
                p = os.path.join(d, name); open(p, 'wb').write(b'x' * 100)
                os.utime(p, (time.time() - age, time.time() - age))
            """, [flipped.path.description, cut.path.description])
        XCTAssertEqual(damage.status, 0, damage.err)
        let states = Dictionary(try format.entries(InspectionContext()).compactMap { e in e.url.map { ($0, e.state) } })
        { a, _ in a }
        XCTAssertEqual(states[flipped.url!], .corrupted)
        XCTAssertEqual(states[cut.url!], .corrupted)

        let prune = Binary.run(["prune", root.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        let left = try format.entries(InspectionContext())
        XCTAssertEqual(left.count, byURL.count - 2 + 2, left.map(\.path.description).description)
        XCTAssertTrue(left.allSatisfy { $0.state == .fresh })
        for (name, kept) in [
            ("todelete_00000000000000aa_0_1", false), ("todelete_00000000000000bb_0_1", true),
            ("00000000000000cc_s", false), ("00000000000000dd_s", true)
        ] {
            XCTAssertEqual(root.appending(name).exists, kept, name + ": " + prune.out)
        }
        // Chromium's cap counts the files' lengths (simple_index_file.cc, ProcessEntryFile): at
        // a cap 10 % above them, nothing goes, though the blocks they take are several times more.
        let lengths = left.reduce(Int64(0)) { $0 + $1.apparentBytes }
        XCTAssertGreaterThan(left.reduce(Int64(0)) { $0 + $1.allocatedBytes }, 2 * lengths)
        let capped = Binary.run(["prune", root.description, "--max-size", "\(lengths * 11 / 10)B"])
        XCTAssertEqual(capped.status, 0, capped.err)
        XCTAssertEqual(try format.entries(InspectionContext()).count, left.count, capped.out)
        XCTAssertTrue(root.appending("index").exists)
        XCTAssertTrue(root.appending("index-dir/the-real-index").exists)
        let again = browse()
        XCTAssertTrue(again.out.contains("done"), again.err)
        server.kill()
    }

    /// Chromium evicts by each entry's last use as its index records it (`index-dir/
    /// the-real-index`, loaded while the directory has not changed since it was written), not
    /// by the files' access times, which a mount's `relatime`, `noatime` or any reader of the
    /// files makes say something else. Here one page loads three scripts, a second page two
    /// seconds later loads one of them again, and the files' access times are then set to say
    /// the opposite (the script used last, read a month ago). A trim that removes one entry
    /// removes the first in Chromium's order worked out in Python from the index file:
    /// `(now − last use) × (size + 512)`, the size in 256-byte chunks (simple_index.cc
    /// `StartEvictionIfNeeded`). Before, cachectl removed the script used last.
    func testTheSizeTrimGoesByChromiumsIndex() throws {
        guard let chromium = ["chromium", "chromium-browser"].first(where: Run.available) else {
            throw XCTSkip("Chromium is not installed")
        }
        let tree = TestTree("chromium-index")
        let site = tree.dir("site")
        for (name, size) in [("a", 3000), ("b", 9000), ("c", 3000)] {
            let text = "var \(name) = '\(String(repeating: "x", count: size))';\n"
            tree.file("site/\(name).js", contents: Array(text.utf8))
        }
        let scripts = ["a", "b", "c"].map { "<script src=\($0).js></script>" }.joined()
        tree.file("site/one.html", contents: Array((scripts + "done").utf8))
        tree.file("site/two.html", contents: Array("<script src=a.js></script>done".utf8))
        let (server, port) = try serve(site)
        defer { server.kill() }
        for (page, pause) in [("one", 2.2), ("two", 0)] {
            let run = Run.command([
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(tree.path("profile").description)",
                "--disk-cache-dir=\(tree.path("dc").description)",
                "--dump-dom", "http://127.0.0.1:\(port)/\(page).html"
            ])
            XCTAssertTrue(run.out.contains("done"), run.err)
            Thread.sleep(forTimeInterval: pause)
        }
        let root = tree.path("dc/Default/Cache/Cache_Data")
        // The index read in Python; the access times set; Chromium's order by the index.
        let oracle = Oracle.python(
            Self.readIndex + """
                used = {}
                for i in range(count):
                    h, t, packed = struct.unpack_from('<QqQ', raw, 40 + 24 * i)
                    used['%016x' % h] = (t // 1000000 - 11644473600, (packed >> 8) << 8)
                names = {}
                for f in os.listdir(d):
                    if re.fullmatch('[0-9a-f]{16}_0', f):
                        data = open(os.path.join(d, f), 'rb').read()
                        key = data[24:24 + struct.unpack_from('<I', data, 12)[0]].decode()
                        names[f[:16]] = key.rsplit('/', 1)[-1]
                now = int(time.time())
                a = [h for h, n in names.items() if n == 'a.js'][0]
                assert used[a][0] > used[[h for h, n in names.items() if n == 'b.js'][0]][0], 'a.js not used last'
                for f in os.listdir(d):
                    p = os.path.join(d, f)
                    if re.fullmatch('[0-9a-f]{16}_[01s]', f):
                        st = os.stat(p)
                        back = 30 * 86400 * 10**9 if f.startswith(a) else 0
                        os.utime(p, ns=(st.st_mtime_ns - back, st.st_mtime_ns))
                order = sorted(used, key=lambda h: -(now - used[h][0]) * (used[h][1] + 512))
                print(names[order[0]])
                """, [root.description])
        XCTAssertEqual(oracle.status, 0, oracle.err)
        let first = oracle.out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(first, "b.js", "the largest of the scripts used first")
        // A cap that starts the trim (above 95 %) and, down to 90 %, frees 1/16 of the total:
        // the first entry in the order is enough.
        let format = try CacheFormats.open(root)
        let before = try format.entries(InspectionContext())
        let total = before.reduce(Int64(0)) { $0 + $1.apparentBytes }
        func lastUse(_ entries: [CacheEntry], _ name: String) throws -> Double {
            try XCTUnwrap(entries.first { $0.url?.hasSuffix("/" + name) == true }?.lastAccess?.timeInterval)
        }
        XCTAssertLessThan(FileTime.now.timeInterval - (try lastUse(before, "a.js")), 600, "the index's")
        let trim = Binary.run(["prune", root.description, "--max-size", "\(total * 100 / 96)B"])
        XCTAssertEqual(trim.status, 0, trim.err)
        let left = Set(try format.entries(InspectionContext()).compactMap(\.url))
        let gone = before.compactMap(\.url).filter { !left.contains($0) }
        XCTAssertEqual(gone, ["http://127.0.0.1:\(port)/\(first)"], trim.out)
        // The trim changed the directory: the index is stale, and Chromium would rebuild it
        // from the files' access times, as cachectl now reads them.
        let after = try format.entries(InspectionContext())
        XCTAssertGreaterThan(FileTime.now.timeInterval - (try lastUse(after, "a.js")), 29 * 86_400, "the files'")
    }

    /// Chromium marks the page a tab loads (a main frame) `HINT_HIGH_PRIORITY` in its index,
    /// and divides its eviction weight by 10 while it was used within a day (simple_index.cc
    /// `StartEvictionIfNeeded`; `kSimpleCachePrioritizedCaching`, on by default). Here this
    /// machine's Chromium loads a 9 KB page and its 1 KB script: the script goes first. cachectl
    /// weighed both alike and removed the page.
    func testChromiumKeepsThePageATabLoadedLonger() throws {
        guard let chromium = ["chromium", "chromium-browser"].first(where: Run.available) else {
            throw XCTSkip("Chromium is not installed")
        }
        let tree = TestTree("chromium-priority")
        let site = tree.dir("site")
        tree.file("site/x.js", contents: Array("var x = '\(String(repeating: "x", count: 1000))';\n".utf8))
        // No favicon request (its 404 would be cached too).
        let comment = "<!--" + String(repeating: "p", count: 9000) + "-->"
        let page = "<link rel=icon href=data:,><script src=x.js></script>\(comment)done"
        tree.file("site/page.html", contents: Array(page.utf8))
        let (server, port) = try serve(site)
        defer { server.kill() }
        let run = Run.command([
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(tree.path("profile").description)", "--disk-cache-dir=\(tree.path("dc").description)",
            "--dump-dom", "http://127.0.0.1:\(port)/page.html"
        ])
        XCTAssertTrue(run.out.contains("done"), run.err)
        Thread.sleep(forTimeInterval: 2.2)
        let root = tree.path("dc/Default/Cache/Cache_Data")
        // Chromium's order, worked out in Python from its index: the hint, and the weights.
        let oracle = Oracle.python(
            Self.readIndex + """
                now, weight, hint = int(time.time()), {}, {}
                for i in range(count):
                    h, t, packed = struct.unpack_from('<QqQ', raw, 40 + 24 * i)
                    age = now - (t // 1000000 - 11644473600)
                    divisor = 10 if packed & 2 and age < 86400 else 1
                    weight['%016x' % h] = age * (((packed >> 8) << 8) + 512) // divisor
                    hint['%016x' % h] = packed & 3
                names = {}
                for f in os.listdir(d):
                    if re.fullmatch('[0-9a-f]{16}_0', f):
                        data = open(os.path.join(d, f), 'rb').read()
                        names[f[:16]] = data[24:24 + struct.unpack_from('<I', data, 12)[0]].decode().rsplit('/', 1)[-1]
                print(' '.join('%s:%d' % (names[h], hint[h]) for h in sorted(weight, key=lambda h: -weight[h])))
                """, [root.description])
        XCTAssertEqual(oracle.status, 0, oracle.err)
        XCTAssertEqual(
            oracle.out.trimmingCharacters(in: .whitespacesAndNewlines), "x.js:0 page.html:2",
            "the page marked high priority, and second in Chromium's order")
        let format = try CacheFormats.open(root)
        let before = try format.entries(InspectionContext())
        XCTAssertEqual(before.count, 2, before.map(\.reason).description)
        let listed = Binary.run(["ls", root.description])
        let said = "/page.html  (Chromium revalidates by the stored headers; no age rule here; a page a tab loaded"
        XCTAssertTrue(listed.out.contains(said), listed.out)
        let total = before.reduce(Int64(0)) { $0 + $1.apparentBytes }
        // Above 95 % of the cap, down to 90 %: one entry is enough.
        let trim = Binary.run(["prune", root.description, "--max-size", "\(total * 100 / 96)B"])
        XCTAssertEqual(trim.status, 0, trim.err)
        let left = try format.entries(InspectionContext()).compactMap(\.url)
        XCTAssertEqual(left, ["http://127.0.0.1:\(port)/page.html"], trim.out)
    }

    /// A site's Cache API storage (a service worker's `CacheStorage`) and its service workers'
    /// scripts are kept in Chromium's simple-cache files, in `net::APP_CACHE` mode, where
    /// Chromium evicts no entry: the site expects what it stored to stay. Here a page
    /// registers a service worker and stores two responses with `caches.open` in this
    /// machine's Chromium. cachectl lists them, and neither `prune --max-size 1K` nor
    /// `clear` removes one, where it lies (beside its site's `index.txt`, its index file gone)
    /// or copied elsewhere (known by its index, which records no use). Before, `prune`
    /// removed both.
    func testASitesCacheStorageIsKeptWhole() throws {
        guard let chromium = ["chromium", "chromium-browser"].first(where: Run.available) else {
            throw XCTSkip("Chromium is not installed")
        }
        let tree = TestTree("chromium-cachestorage")
        let site = tree.dir("site")
        tree.file(
            "site/store.html",
            contents: Array(
                """
                <script>Promise.all([navigator.serviceWorker.register('/sw.js'), caches.open('v1').then(c =>
                  Promise.all([c.put('/x', new Response('x'.repeat(3000))),
                    c.put('/y', new Response('y'.repeat(9000)))]))
                ]).then(() => { document.title = 'stored' })</script>
                <img src="/slow">
                """.utf8))
        tree.file("site/sw.js", contents: Array("self.addEventListener('fetch', e => {});\n".utf8))
        // The image holds the page's load (and so the DOM dump) until the responses are stored.
        let (server, port) = try serve(
            site,
            also: """
                    def do_GET(self):
                        if self.path != '/slow': return super().do_GET()
                        __import__('time').sleep(3); self.send_response(204); self.end_headers()
                """)
        defer { server.kill() }
        let run = Run.command([
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(tree.path("profile").description)", "--dump-dom", "http://127.0.0.1:\(port)/store.html"
        ])
        XCTAssertTrue(run.out.contains("<title>stored</title>"), run.out + run.err)
        let storage = tree.path("profile/Default/Service Worker/CacheStorage")
        let caches = FileTree.files(under: storage).filter { $0.path.lastComponent == Array("index".utf8) }
        let root = try XCTUnwrap(caches.first?.path.parentDirectory, "no cache under \(storage.description)")
        let copy = tree.path("copy")
        XCTAssertEqual(Run.command(["cp", "-a", root.description, copy.description]).status, 0)
        // Where it lies, without its index (a running Chromium writes it only when idle); the
        // service worker's scripts, likewise.
        let scripts = tree.path("profile/Default/Service Worker/ScriptCache")
        for dir in [root, scripts] {
            XCTAssertTrue(FileIOProbe.remove(dir.appending("index-dir/the-real-index")), dir.description)
        }
        for dir in [root, copy, scripts] {
            let listed = Binary.run(["ls", dir.description])
            XCTAssertEqual(listed.status, 0, listed.err)
            // The scripts are keyed by resource number, not URL.
            XCTAssertTrue(dir == scripts || listed.out.contains("http://127.0.0.1:\(port)/y"), listed.out)
            XCTAssertTrue(listed.out.contains("a site's own data"), listed.out)
            // `du`, `ls` and `prune` say what it is (they said "Chromium simple cache", as for the
            // HTTP cache).
            let name = "Chromium site data (Cache API storage or service worker scripts)"
            let du = Binary.run(["du", dir.parentDirectory.description])
            XCTAssertTrue(du.out.contains(name + ": "), du.out + du.err)
            XCTAssertTrue(listed.out.hasPrefix(name + ": "), listed.out)
            let files = FileTree.files(under: dir).count
            let prune = Binary.run(["prune", dir.description, "--max-size", "1K"])
            XCTAssertEqual(prune.status, 0, prune.err)
            XCTAssertTrue(prune.out.hasPrefix(dir.escaped + " (" + name + ")"), prune.out)
            let clear = Binary.run(["clear", dir.description])
            XCTAssertEqual(FileTree.files(under: dir).count, files, prune.out + clear.out + clear.err)
        }
    }

    /// An `_0` file is checked where its parts lie: header and key from the start, the end
    /// records and stream 0 from the end, the streams' CRC-32s a block at a time. Here an entry
    /// whose stream 1 is 2 GiB (a hole in a sparse file; stream sizes are 32-bit), laid out by
    /// simple_entry_format.h in Python, in 1.5 GiB of address space. Before, the whole file was
    /// read into memory: the binary stopped (SIGABRT) when it could not allocate it.
    func testAnEntryIsCheckedWithoutHoldingIt() throws {
        let tree = TestTree("chromium-large")
        let root = tree.dir("Cache_Data")
        let made = Oracle.python(
            """
            import hashlib, os, struct, sys, zlib
            root, size = sys.argv[1], int(sys.argv[2])
            initial, final = 0xfcfb6d1ba7725c30, 0xf4fa6f45970d41d8
            open(os.path.join(root, 'index'), 'wb').write(struct.pack('<Q', initial) + b'\\0' * 16)
            key = b'1/0/_dk_http://media.example http://media.example http://media.example/film.mp4'
            name = '%016x_0' % struct.unpack('<Q', hashlib.sha1(key).digest()[:8])[0]
            stream0 = b'HTTP/1.1 200 OK\\0Content-Type: video/mp4\\0\\0'
            with open(os.path.join(root, name), 'wb') as f:
                f.write(struct.pack('<QIII4x', initial, 5, len(key), 0) + key)  # SimpleFileHeader
                f.seek(size, 1)  # stream 1: a hole, written without a CRC (flags 0)
                f.write(struct.pack('<QIIi4x', final, 0, 0, size))  # SimpleFileEOF
                f.write(stream0 + struct.pack('<QIIi4x', final, 1, zlib.crc32(stream0), len(stream0)))
            """, [root.description, String((1 << 31) - 1)])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertEqual(CacheFormats.detect(root), .chromium)
        let run = Run.command(["sh", "-c", "ulimit -v 1500000; exec '\(Binary.path)' ls '\(root.description)'"])
        XCTAssertEqual(run.status, 0, String(run.err.suffix(500)))
        XCTAssertTrue(run.out.contains("http://media.example/film.mp4"), run.out)
        XCTAssertTrue(run.out.contains("fresh"), run.out)
    }
}

/// A folder of git mirrors, as SwiftPM keeps them: each mirror is one unit, and the ones a
/// prune leaves pass `git fsck`.
final class GitMirrorsEndToEndTests: XCTestCase {
    func testMirrorsAreWholeUnits() throws {
        let tree = TestTree("mirrors")
        let source = tree.dir("src")
        func git(_ args: [String], in dir: RawPath) -> RunResult {
            Run.command(["git", "-C", dir.description, "-c", "user.email=t@example.com", "-c", "user.name=t"] + args)
        }
        XCTAssertEqual(git(["init", "-q"], in: source).status, 0)
        for i in 0..<3 {
            tree.file("src/f\(i).txt", contents: Array(String(repeating: "line \(i)\n", count: 2000).utf8))
            XCTAssertEqual(git(["add", "."], in: source).status, 0)
            XCTAssertEqual(git(["commit", "-q", "-m", "c\(i)"], in: source).status, 0)
        }
        let mirrors = tree.dir("cache/org.swift.swiftpm/repositories")
        let now = Int(FileTime.now.timeInterval)
        for (i, name) in ["alpha-1a2b3c4d", "beta-5e6f7a8b", "gamma-9c0d1e2f"].enumerated() {
            let clone = Run.command([
                "git", "clone", "-q", "--mirror", "--no-local", source.description, mirrors.appending(name).description
            ])
            XCTAssertEqual(clone.status, 0, clone.err)
            // alpha used 30 days ago, beta 20, gamma 10: every file of the mirror.
            let age = (30 - i * 10) * 86_400
            XCTAssertEqual(
                Run.command([
                    "sh", "-c",
                    "find '\(mirrors.appending(name).description)' -type f -exec touch -d @\(now - age) {} +"
                ]).status, 0)
        }
        XCTAssertEqual(CacheFormats.detect(mirrors), .gitmirrors)
        let entries = try CacheFormats.open(mirrors).entries(InspectionContext())
        XCTAssertEqual(entries.count, 3)
        XCTAssertTrue(entries.allSatisfy(\.isUnit))
        let cache = tree.path("cache")
        let prune = Binary.run(
            ["prune", cache.description, "--max-age", "15d"],
            environment: ["XDG_CACHE_HOME": cache.description, "HOME": tree.root.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        let left = Run.command(["ls", mirrors.description]).out.split(separator: "\n").map(String.init)
        XCTAssertEqual(left, ["gamma-9c0d1e2f"])
        let fsck = Run.command(["git", "-C", mirrors.appending("gamma-9c0d1e2f").description, "fsck", "--full"])
        XCTAssertEqual(fsck.status, 0, fsck.err)
    }
}

/// A cache2 this machine's Firefox filled (headless, from a site on 127.0.0.1), then damaged;
/// Firefox loads the site again from the pruned cache.
final class FirefoxCacheEndToEndTests: XCTestCase {
    func testCache2ByItsOwnHashes() throws {
        guard let firefox = ["firefox-esr", "firefox"].first(where: Run.available) else {
            throw XCTSkip("Firefox is not installed")
        }
        let tree = TestTree("firefox")
        tree.dir("site")
        var body = "<html><body>"
        for i in 0..<4 {
            tree.file("site/i\(i).png", contents: Images.png)
            tree.file(
                "site/s\(i).js",
                contents: Array("var v\(i) = '\(String(repeating: "y", count: 100 + i * 300))';\n".utf8))
            body += "<img src=\"i\(i).png\"><script src=\"s\(i).js\"></script>"
        }
        tree.file("site/index.html", contents: Array((body + "</body></html>").utf8))
        // s0.js expires at once: Firefox keeps it, to revalidate.
        let server = Self.serve(tree, expiringAtOnce: "/s0.js")
        let port = try XCTUnwrap(server.readLine())
        Self.writeProfile(tree)
        func browse(_ shot: String) -> RunResult {
            Self.browse(firefox, tree, "http://127.0.0.1:\(port)/index.html", screenshot: shot)
        }
        let first = browse("one.png")
        XCTAssertEqual(first.status, 0, first.err)
        let root = tree.path("profile/cache2")
        XCTAssertEqual(CacheFormats.detect(root), .firefox)
        let format = try CacheFormats.open(root)
        let entries = try format.entries(InspectionContext(verify: true))
        let byURL = Dictionary(entries.compactMap { e in e.url.map { ($0, e) } }) { a, _ in a }
        XCTAssertGreaterThanOrEqual(byURL.count, 9, entries.map(\.reason).description)
        XCTAssertTrue(entries.allSatisfy { $0.state == .fresh }, entries.map(\.reason).description)
        try assertBodiesAreReadOut(
            root, site: tree.path("site"), port: port, tree: tree)
        // Past its own expiry, an entry is stale to `cat` (exit 1), as the native store's are.
        let stale = Binary.run(["cat", "http://127.0.0.1:\(port)/s0.js", "--cache", root.description])
        XCTAssertEqual(stale.status, 1, stale.out)
        let allowed = Binary.run(["cat", "http://127.0.0.1:\(port)/s0.js", "--cache", root.description, "--allow-stale"]
        )
        XCTAssertEqual(allowed.stdout, try FileIOProbe.read(tree.path("site/s0.js")), allowed.err)

        // A body byte flipped (only the chunk hash knows), metadata damaged, a doomed entry.
        let data = try XCTUnwrap(byURL["http://127.0.0.1:\(port)/s2.js"])
        let meta = try XCTUnwrap(byURL["http://127.0.0.1:\(port)/i1.png"])
        let damage = Oracle.python(
            """
            import os, sys, time
            a, b, doomed = sys.argv[1], sys.argv[2], sys.argv[3]
            x = bytearray(open(a, 'rb').read()); x[3] ^= 0xff; open(a, 'wb').write(x)
            y = bytearray(open(b, 'rb').read()); y[-12] ^= 0xff; open(b, 'wb').write(y)
            for p in (a, b): os.utime(p, (time.time() - 7200, time.time() - 7200))
            open(os.path.join(doomed, '123'), 'wb').write(b'z' * 300)
            os.utime(os.path.join(doomed, '123'), (time.time() - 7200, time.time() - 7200))
            # Doomed just now: Firefox may still have it open (within the grace period).
            open(os.path.join(doomed, '456'), 'wb').write(b'z' * 300)
            """, [data.path.description, meta.path.description, root.appending("doomed").description])
        XCTAssertEqual(damage.status, 0, damage.err)
        let plain = Dictionary(
            try format.entries(InspectionContext()).compactMap { e in
                e.path.lastComponent.isEmpty ? nil : (e.path.description, e.state)
            }
        ) { a, _ in a }
        XCTAssertEqual(plain[data.path.description], .fresh, "without --verify only the metadata is checked")
        XCTAssertEqual(plain[meta.path.description], .corrupted)
        let verified = Dictionary(
            try format.entries(InspectionContext(verify: true)).map { ($0.path.description, $0.state) }
        ) { a, _ in a }
        XCTAssertEqual(verified[data.path.description], .corrupted)
        XCTAssertEqual(verified[root.appending("doomed/123").description], .orphan)
        XCTAssertEqual(verified[root.appending("doomed/456").description], .fresh)

        let prune = Binary.run(["prune", root.description, "--verify"])
        XCTAssertEqual(prune.status, 0, prune.err)
        let left = try format.entries(InspectionContext(verify: true))
        XCTAssertEqual(left.count, byURL.count - 2 + 1, left.map(\.path.description).description)
        XCTAssertTrue(left.allSatisfy { $0.state == .fresh })
        XCTAssertFalse(root.appending("doomed/123").exists)
        XCTAssertTrue(root.appending("doomed/456").exists, prune.out)
        // Firefox's capacity counts the files' lengths and is trimmed down to itself
        // (CacheFileIOManager.cpp, OverLimitEvictionInternal): at a cap just above them,
        // nothing goes; at one just below, only enough goes to get within it.
        let lengths = left.reduce(Int64(0)) { $0 + $1.apparentBytes }
        XCTAssertGreaterThan(left.reduce(Int64(0)) { $0 + $1.allocatedBytes }, lengths)
        let above = Binary.run(["prune", root.description, "--max-size", "\(lengths + 100)B"])
        XCTAssertEqual(above.status, 0, above.err)
        XCTAssertEqual(try format.entries(InspectionContext()).count, left.count, above.out)
        let below = Binary.run(["prune", root.description, "--max-size", "\(lengths - 1)B"])
        XCTAssertEqual(below.status, 0, below.err)
        XCTAssertEqual(try format.entries(InspectionContext()).count, left.count - 1, below.out)
        let again = browse("two.png")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(tree.path("two.png").exists)
        server.kill()
    }

    /// Over its capacity, Firefox evicts the entry of lowest frecency first
    /// (CacheIndex.cpp `GetEntryForEviction`): a resource used twice outranks one used once a
    /// little later. cachectl went by the last fetch (and expired entries first), so it took
    /// the page used twice for the oldest. Here page x is loaded twice, then page y once; the
    /// one entry a trim of one byte removes must be the one of lowest frecency, as read from
    /// the entries' headers here in Python, which is not the least recently fetched.
    func testTheSizeTrimGoesByFrecency() throws {
        guard let firefox = ["firefox-esr", "firefox"].first(where: Run.available) else {
            throw XCTSkip("Firefox is not installed")
        }
        let tree = TestTree("firefox-frecency")
        tree.dir("site")
        // Pages alone, no images: a page's entry is reused by the second load. (An image the
        // headless run wrote as it ended was at times fetched anew by the next: used once.)
        for page in ["x", "y"] {
            tree.file("site/\(page).html", contents: Array("<html><body><p>\(page)</p></body></html>".utf8))
        }
        let server = Self.serve(tree)
        defer { server.kill() }
        let port = try XCTUnwrap(server.readLine())
        Self.writeProfile(tree)
        for (page, shot) in [("x", "1"), ("x", "2"), ("y", "3")] {
            let run = Self.browse(firefox, tree, "http://127.0.0.1:\(port)/\(page).html", screenshot: "\(shot).png")
            XCTAssertEqual(run.status, 0, run.err)
            Thread.sleep(forTimeInterval: 1.1)  // distinct fetch times, to the second
        }
        let root = tree.path("profile/cache2")
        // Each entry's header, read here: name, last fetched, frecency, length.
        let headers = Oracle.python(
            """
            import math, os, struct, sys
            entries = os.path.join(sys.argv[1], 'entries')
            for name in sorted(os.listdir(entries)):
                data = open(os.path.join(entries, name), 'rb').read()
                offset = struct.unpack('>I', data[-4:])[0]
                at = offset + 4 + 2 * ((offset + 262143) // 262144)
                _, _, fetched, _, frecency = struct.unpack('>5I', data[at:at + 20])
                print(name, fetched, frecency, len(data))
            """, [root.description])
        XCTAssertEqual(headers.status, 0, headers.err)
        let rows = headers.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertGreaterThanOrEqual(rows.count, 2, headers.out)
        let rank = { (row: [String]) -> UInt64 in row[2] == "0" ? UInt64.max : UInt64(row[2])! }
        let lowest = try XCTUnwrap(rows.min { rank($0) != rank($1) ? rank($0) < rank($1) : $0[0] < $1[0] })
        let oldest = try XCTUnwrap(rows.min { UInt64($0[1])! < UInt64($1[1])! })
        XCTAssertNotEqual(lowest[0], oldest[0], "the scene does not tell frecency from the last fetch:\n\(headers.out)")
        let lengths = rows.reduce(Int64(0)) { $0 + Int64($1[3])! }
        let prune = Binary.run(["prune", root.description, "--max-size", "\(lengths - 1)B"])
        XCTAssertEqual(prune.status, 0, prune.err)
        let gone = rows.map(\.[0]).filter { !root.appending("entries/\($0)").exists }
        XCTAssertEqual(gone, [lowest[0]], headers.out + prune.out)
    }

    /// A server on 127.0.0.1 for the tree's `site/`, every response fresh for an hour but
    /// those whose path ends in `expiringAtOnce`; its first line of output is its port.
    static func serve(_ tree: TestTree, expiringAtOnce: String = "") -> Background {
        Run.start([
            "python3", "-c",
            """
            import functools, http.server, sys
            class H(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *a): pass
                def end_headers(self):
                    age = 0 if sys.argv[2] and self.path.endswith(sys.argv[2]) else 3600
                    self.send_header('Cache-Control', 'max-age=%d' % age); super().end_headers()
            s = http.server.HTTPServer(('127.0.0.1', 0), functools.partial(H, directory=sys.argv[1]))
            print(s.server_port, flush=True)
            s.serve_forever()
            """, tree.path("site").description, expiringAtOnce
        ])
    }

    /// A profile (`profile/`) whose disk cache is on, of a fixed capacity.
    static func writeProfile(_ tree: TestTree) {
        tree.file(
            "profile/user.js",
            contents: Array(
                """
                user_pref("browser.cache.disk.enable", true);
                user_pref("browser.cache.disk.smart_size.enabled", false);
                user_pref("browser.cache.disk.capacity", 100000);
                user_pref("browser.shell.checkDefaultBrowser", false);
                user_pref("datareporting.policy.dataSubmissionEnabled", false);
                """.utf8))
    }

    /// Headless Firefox on the tree's profile loads `url` and saves a screenshot of it.
    static func browse(_ firefox: String, _ tree: TestTree, _ url: String, screenshot: String) -> RunResult {
        Run.command(
            [
                "timeout", "90", firefox, "--headless", "--no-remote", "--profile", tree.path("profile").description,
                "--screenshot", tree.path(screenshot).description, url
            ],
            environment: ["HOME": tree.root.description, "XDG_CACHE_HOME": tree.path("xdg").description])
    }

    /// An entry is read as Firefox reads it, from its end: the metadata offset in the last 4
    /// bytes, then the metadata (its data only with `--verify`). Here an entry of 3 GiB of
    /// data (a hole in a sparse file; cache2's offsets are 32-bit), made to the layout with
    /// lookup2 written again in Python, in 2 GiB of address space. Before, each entry was read
    /// whole: the binary stopped (SIGABRT) when it could not allocate it.
    func testAnEntryIsReadFromItsEnd() throws {
        let tree = TestTree("firefox-end")
        let root = tree.dir("cache2")
        tree.dir("cache2/doomed")
        tree.dir("cache2/entries")
        let made = Oracle.python(
            """
            import hashlib, os, struct, sys
            M = 0xffffffff
            def mix(a, b, c):
                a = (a - b - c) & M; a ^= c >> 13
                b = (b - c - a) & M; b ^= (a << 8) & M
                c = (c - a - b) & M; c ^= b >> 13
                a = (a - b - c) & M; a ^= c >> 12
                b = (b - c - a) & M; b ^= (a << 16) & M
                c = (c - a - b) & M; c ^= b >> 5
                a = (a - b - c) & M; a ^= c >> 3
                b = (b - c - a) & M; b ^= (a << 10) & M
                c = (c - a - b) & M; c ^= b >> 15
                return a, b, c
            def lookup2(k):  # Bob Jenkins' lookup2, initial value 0 (CacheHash::Hash)
                a = b = 0x9e3779b9; c = 0; i = 0
                while len(k) - i >= 12:
                    w = [int.from_bytes(k[i + j:i + j + 4], 'little') for j in (0, 4, 8)]
                    a, b, c = mix((a + w[0]) & M, (b + w[1]) & M, (c + w[2]) & M); i += 12
                c = (c + len(k)) & M
                for n, byte in enumerate(k[i:]):
                    if n < 4: a = (a + (byte << (8 * n))) & M
                    elif n < 8: b = (b + (byte << (8 * (n - 4)))) & M
                    else: c = (c + (byte << (8 * (n - 7)))) & M
                return mix(a, b, c)[2]
            root, size = sys.argv[1], int(sys.argv[2])
            key = b':http://media.example/film.mp4'
            chunks = (size + 256 * 1024 - 1) // (256 * 1024)
            rest = (b'\\0\\0' * chunks + struct.pack('>8I', 3, 1, 1700000000, 1700000000, 0, 1900000000, len(key), 0)
                    + key + b'\\0' + b'a\\0b\\0')
            with open(os.path.join(root, 'entries', hashlib.sha1(key).hexdigest().upper()), 'wb') as f:
                f.seek(size)
                f.write(struct.pack('>I', lookup2(rest)) + rest + struct.pack('>I', size))
            """, [root.description, String(3 << 30)])
        XCTAssertEqual(made.status, 0, made.err)
        let run = Run.command(["sh", "-c", "ulimit -v 2097152; exec '\(Binary.path)' ls '\(root.description)'"])
        XCTAssertEqual(run.status, 0, String(run.err.suffix(500)))
        XCTAssertTrue(run.out.contains("http://media.example/film.mp4"), run.out)
        XCTAssertTrue(run.out.contains("fresh until its expiration time"), run.out)
    }
}

/// Go's build cache filled by this machine's go: one program built and left unused for ten
/// days, another built now. cachectl's prune and go's own trim (forced on a copy by an old
/// `trim.txt`) leave the same files, and go builds from the pruned cache.
final class GoBuildCacheEndToEndTests: XCTestCase {
    func testPruneLeavesWhatGosOwnTrimLeaves() throws {
        guard Run.available("go") else { throw XCTSkip("go is not installed") }
        let tree = TestTree("gobuild-real")
        let cache = tree.dir("go-build")
        func program(_ name: String, _ source: String) -> RawPath {
            tree.file("\(name)/go.mod", contents: Array("module example.com/\(name)\n\ngo 1.19\n".utf8))
            tree.file("\(name)/main.go", contents: Array(source.utf8))
            return tree.path(name)
        }
        func build(_ dir: RawPath, cache: RawPath) -> RunResult {
            Run.command(
                ["sh", "-c", "cd '\(dir.description)' && go build -o '\(dir.description)/out' ."],
                environment: [
                    "GOCACHE": cache.description, "HOME": tree.root.description, "GOFLAGS": "-mod=mod",
                    "GOPATH": tree.path("gopath").description, "GO111MODULE": "on"
                ])
        }
        let old = program(
            "old",
            """
            package main\nimport (\"fmt\"; \"net/url\"; \"strings\")\nfunc main() { u, _ := \
            url.Parse(\"http://x\"); fmt.Println(strings.ToUpper(u.Host)) }\n
            """
        )
        let new = program("new", "package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"hi\") }\n")
        XCTAssertEqual(build(old, cache: cache).status, 0)
        XCTAssertEqual(
            Run.command(["sh", "-c", "find '\(cache.description)' -type f -exec touch -d '10 days ago' {} +"]).status, 0
        )
        let fresh = build(new, cache: cache)
        XCTAssertEqual(fresh.status, 0, fresh.err)
        // Built again, all hits: go marks every entry the build reads as used (an output it
        // found already written is not rewritten by the first build, so not touched then).
        XCTAssertEqual(build(new, cache: cache).status, 0)
        XCTAssertEqual(CacheFormats.detect(cache), .gobuild)

        let copy = tree.path("copy")
        XCTAssertEqual(Run.command(["cp", "-a", cache.description, copy.description]).status, 0)
        // go trims at most once a day (trim.txt): an old stamp makes its next build trim.
        tree.file("copy/trim.txt", contents: Array("\(Int(FileTime.now.timeInterval) - 3 * 86_400)\n".utf8))
        XCTAssertEqual(build(new, cache: copy).status, 0)

        func files(_ root: RawPath) -> [String] {
            Run.command(["sh", "-c", "cd '\(root.description)' && find . -type f ! -name trim.txt | sort"]).out.split(
                separator: "\n"
            ).map(String.init)
        }
        let before = files(cache)
        let prune = Binary.run(["prune", cache.description, "--format", "gobuild"])
        XCTAssertEqual(prune.status, 0, prune.err)
        let ours = files(cache)
        let gos = files(copy)
        XCTAssertLessThan(gos.count, before.count, "go's trim removed the program unused for ten days")
        XCTAssertEqual(ours, gos, prune.out)
        // The 256 folders stay, as go's trim leaves them: go makes them only when it opens the
        // cache, and a go already running fails each write into one removed.
        func folders(_ root: RawPath) -> [String] {
            Run.command(["sh", "-c", "cd '\(root.description)' && find . -type d | sort"]).out.split(separator: "\n")
                .map(String.init)
        }
        XCTAssertEqual(folders(cache), folders(copy))
        // go still builds, from the pruned cache.
        let again = build(new, cache: cache)
        XCTAssertEqual(again.status, 0, again.err)
        let rebuilt = build(old, cache: cache)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.err)
        let clear = Binary.run(["clear", cache.description])
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertEqual(folders(cache).filter { $0.count == 4 }.count, 256, clear.out)
    }
}

/// clang's module cache filled by this machine's clang (the Swift toolchain's): one module left
/// unused for 40 days, the others used now. cachectl's prune and clang's own (forced on a copy
/// by an old `modules.timestamp`) leave the same files, and clang compiles from what is left.
final class ClangModuleCacheEndToEndTests: XCTestCase {
    func testPruneLeavesWhatClangsOwnPruneLeaves() throws {
        guard Run.available("clang") else { throw XCTSkip("clang is not installed") }
        let tree = TestTree("clang-modules")
        let cache = tree.path("home/.cache/clang/ModuleCache")
        tree.file(
            "src/module.modulemap",
            contents: Array(
                """
                module Base { header "base.h" export * }
                module Top { header "top.h" export * }
                module Old { header "old.h" export * }\n
                """.utf8))
        tree.file("src/base.h", contents: Array("int base(int);\n".utf8))
        tree.file("src/top.h", contents: Array("#include \"base.h\"\nint top(int);\n".utf8))
        tree.file("src/old.h", contents: Array("int old(int);\n".utf8))
        tree.file(
            "src/new.c",
            contents: Array("#include \"top.h\"\n#include <stddef.h>\nint f(void) { return top(0); }\n".utf8))
        tree.file("src/old.c", contents: Array("#include \"old.h\"\nint g(void) { return old(0); }\n".utf8))
        // As a build system does: each module's `.pcm.timestamp` says it was checked this session.
        let session = Int(FileTime.now.timeInterval)
        func compile(_ source: String) -> RunResult {
            Run.command([
                "clang", "-fmodules", "-fimplicit-module-maps", "-fmodules-cache-path=\(cache.description)",
                "-fmodules-validate-once-per-build-session", "-fbuild-session-timestamp=\(session)", "-c",
                tree.path("src/\(source)").description, "-o", tree.path("\(source).o").description
            ])
        }
        func files(_ root: RawPath) -> [String] {
            Run.command(["sh", "-c", "cd '\(root.description)' && find . ! -name modules.timestamp | sort"]).out
                .split(separator: "\n").map(String.init)
        }
        func shell(_ script: String) {
            let done = Run.command(["sh", "-c", script])
            XCTAssertEqual(done.status, 0, "\(script): \(done.err)")
        }
        for source in ["new.c", "old.c"] {
            let built = compile(source)
            XCTAssertEqual(built.status, 0, built.err)
            // After its first compile, clang has written no `modules.timestamp` yet.
            if source == "new.c" {
                XCTAssertNotEqual(Run.command(["test", "-e", cache.description + "/modules.timestamp"]).status, 0)
                XCTAssertEqual(CacheFormats.detect(cache), .clangmodules)
            }
        }
        XCTAssertEqual(CacheFormats.detect(cache), .clangmodules)
        // A module file records the cache's path: the copy is used where the cache was.
        let (copy, ours) = (tree.path("copy").description, tree.path("ours").description)
        shell("cp -a '\(cache.description)' '\(copy)'")
        for root in [cache.description, copy] {
            shell("find '\(root)' -name 'Old-*.pcm' -exec touch -a -d '40 days ago' {} +")
        }
        let before = files(cache)
        XCTAssertTrue(before.contains { $0.contains("/Old-") && $0.hasSuffix(".pcm.timestamp") }, "\(before)")

        let prune = Binary.run(["prune", cache.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertTrue(prune.out.contains("(clang module cache)"), prune.out)
        let pruned = files(cache)
        // clang's own prune on the copy: it prunes once its stamp is more than a week old.
        shell("mv '\(cache.description)' '\(ours)' && mv '\(copy)' '\(cache.description)'")
        shell("touch -d '8 days ago' '\(cache.description)/modules.timestamp'")
        let clangs = compile("new.c")
        XCTAssertEqual(clangs.status, 0, clangs.err)
        let left = files(cache)
        XCTAssertFalse(left.contains { $0.contains("/Old-") }, "clang's prune removed the module unused for 40 days")
        XCTAssertEqual(pruned, left, prune.out)

        // clang compiles from what cachectl left, building the pruned module again.
        shell("rm -rf '\(cache.description)' && mv '\(ours)' '\(cache.description)'")
        for source in ["old.c", "new.c"] {
            let built = compile(source)
            XCTAssertEqual(built.status, 0, built.err)
        }
        XCTAssertTrue(files(cache).contains { $0.contains("/Old-") && $0.hasSuffix(".pcm") })

        // What clang does not prune stays, even trimmed to nothing; a half-written module goes.
        let context = try XCTUnwrap(
            files(cache).map { String($0.dropFirst(2)) }.first { !$0.isEmpty && !$0.contains("/") && !$0.contains(".") }
        )
        tree.file("home/.cache/clang/ModuleCache/\(context)/Top-1.pcm.lock", contents: Array("host 1\n".utf8))
        tree.file("home/.cache/clang/ModuleCache/\(context)/Top-1-a1b2c3d4.pcm.tmp", contents: Array("CPCH".utf8))
        shell("touch -d '2 hours ago' '\(cache.description)/\(context)/Top-1-a1b2c3d4.pcm.tmp'")
        tree.file("home/.cache/clang/ModuleCache/Swift-1A2B.swiftmodule", contents: Array("swift".utf8))
        let home = ["HOME": tree.path("home").description, "XDG_CACHE_HOME": tree.path("home/.cache").description]
        let trim = Binary.run(["prune", tree.path("home/.cache").description, "--max-size", "1K"], environment: home)
        XCTAssertEqual(trim.status, 0, trim.err)
        let trimmed = files(cache)
        XCTAssertFalse(trimmed.contains { $0.hasSuffix(".pcm") || $0.hasSuffix(".tmp") }, trim.out)
        XCTAssertTrue(trimmed.contains("./\(context)/Top-1.pcm.lock"), trim.out)
        XCTAssertTrue(trimmed.contains("./Swift-1A2B.swiftmodule"), trim.out)
        XCTAssertTrue(Run.command(["test", "-f", cache.description + "/modules.timestamp"]).status == 0)
        let again = compile("new.c")
        XCTAssertEqual(again.status, 0, again.err)
    }
}

/// The bytes a prune of `cache` counts before it deletes anything: its dry-run plan's "before"
/// line (what a size cap is compared with; `du` counts folders' own blocks too).
private func bytesPruneCounts(_ cache: RawPath) throws -> Int {
    let plan = Binary.run(["prune", cache.description, "--max-size", "1G", "--dry-run"]).out
    return try XCTUnwrap(
        plan.split(separator: "\n").first { $0.contains("before") }?.split(separator: " ").last.flatMap { Int($0) },
        plan)
}

/// uv's cache filled by this machine's uv (from wheels made here, offline). uv trusts an
/// unpacked wheel (`archive-v0/<id>`) that is there: one missing a file installs broken. A
/// prune keeps each whole or removes it whole with the links to it, takes uv's own lock, and uv
/// installs from what is left.
final class UvCacheEndToEndTests: XCTestCase {
    /// uv's binary: the one pip installed (`Scripts/test-deps`), else the one on PATH.
    static var uv: String? {
        let found = Run.command(["python3", "-c", "import uv; print(uv.find_uv_bin())"])
        if found.status == 0, !found.out.isEmpty { return found.out.trimmingCharacters(in: .whitespacesAndNewlines) }
        return Run.available("uv") ? "uv" : nil
    }

    /// `uv cache prune`'s rules on a cache laid out as uv 0.13 lays it out: an unpacked wheel
    /// no link names and an older uv's bucket are orphans, a temporary folder an interrupted
    /// uv left is incomplete; one a built revision links (its unzipped wheel) is in use.
    func testPruneAppliesUvsOwnPruneRules() throws {
        let tree = TestTree("uv-rules")
        let made = Oracle.python(
            """
            import os, sys
            c = sys.argv[1]
            def f(p, data=b'x'):
                p = os.path.join(c, p); os.makedirs(os.path.dirname(p), exist_ok=True); open(p, 'wb').write(data)
            f('CACHEDIR.TAG', b'Signature: 8a477f597d28d172789f06886806bc55\\n')
            f('.lock', b''); f('.gitignore', b'*')
            for wheel in ('linked', 'built', 'unlinked'):
                f('archive-v0/%s/%s/__init__.py' % (wheel, wheel))
                f('archive-v0/%s/%s-1.0.dist-info/METADATA' % (wheel, wheel))
            f('wheels-v8/pypi/linked/1.0-py3-none-any.http')
            os.symlink('../../../archive-v0/linked', os.path.join(c, 'wheels-v8/pypi/linked/1.0-py3-none-any'))
            f('sdists-v11/pypi/built/1.0/rev1/metadata.msgpack')
            f('sdists-v11/pypi/built/1.0/rev1/built-1.0-py3-none-any.whl')
            f('sdists-v11/pypi/built/1.0/rev1/src/setup.py')
            os.symlink('../../../../../archive-v0/built', \\
            os.path.join(c, 'sdists-v11/pypi/built/1.0/rev1/built-1.0-py3-none-any'))
            f('wheels-v7/pypi/old/1.0-py3-none-any.msgpack')
            f('.tmpAbC123/partial/__init__.py')
            old = 1_700_000_000
            for parent, dirs, files in os.walk(c):
                for name in dirs + files:
                    os.utime(os.path.join(parent, name), (old, old), follow_symlinks=False)
            """, [tree.dir("uv").description])
        XCTAssertEqual(made.status, 0, made.err)
        let cache = tree.path("uv")
        XCTAssertEqual(CacheFormats.detect(cache), .uv)
        let prune = Binary.run(["prune", cache.description])
        XCTAssertEqual(prune.status, 0, prune.err)
        let left = Run.command(["sh", "-c", "cd '\(cache.description)' && find . | sort"]).out
        for gone in ["./archive-v0/unlinked", "./wheels-v7", "./.tmpAbC123"] {
            XCTAssertFalse(left.contains(gone + "\n") || left.contains(gone + "/"), "\(gone)\n\(prune.out)")
        }
        for kept in [
            "./archive-v0/linked/linked/__init__.py", "./archive-v0/built/built/__init__.py",
            "./sdists-v11/pypi/built/1.0/rev1/built-1.0-py3-none-any", "./wheels-v8/pypi/linked/1.0-py3-none-any",
            "./.lock", "./.gitignore", "./CACHEDIR.TAG"
        ] {
            XCTAssertTrue(left.contains(kept + "\n"), "\(kept)\n\(prune.out)")
        }
        XCTAssertTrue(prune.out.contains("orphan                             2"), prune.out)
        XCTAssertTrue(prune.out.contains("incomplete                         1"), prune.out)
    }

    func testPruneKeepsEveryUnpackedWheelWholeUnderUvsLock() throws {
        guard let uv = Self.uv else { throw XCTSkip("uv is not installed (Scripts/test-deps installs it)") }
        let tree = TestTree("uv-real")
        let (cache, wheels) = (tree.path("uv"), tree.dir("wheels").description)
        let made = Oracle.python(
            """
            import zipfile, hashlib, base64, sys
            def wheel(name, body):
                info = name + "-1.0.dist-info"
                files = {name + "/__init__.py": body, info + "/METADATA": "Metadata-Version: 2.1\\nName: %s\\n\\
            Version: 1.0\\n" % name, info + "/WHEEL": "Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\n\\
            Tag: py3-none-any\\n"}
                record = ["%s,sha256=%s,%d" % (p, base64.urlsafe_b64encode(hashlib.sha256(c.encode()).digest())\\
            .rstrip(b"=").decode(), len(c.encode())) for p, c in files.items()]
                files[info + "/RECORD"] = "\\n".join(record + [info + "/RECORD,,"]) + "\\n"
                with zipfile.ZipFile(sys.argv[1] + "/" + name + "-1.0-py3-none-any.whl", "w") as z:
                    for p, c in files.items(): z.writestr(p, c)
            wheel("alpha", "VALUE = 'alpha'\\n" + "# padding\\n" * 4000)
            wheel("beta", "VALUE = 'beta'\\n")
            """, [wheels])
        XCTAssertEqual(made.status, 0, made.err)
        let env = ["UV_CACHE_DIR": cache.description, "UV_NO_CONFIG": "1", "HOME": tree.root.description]
        func uvRun(_ args: [String]) -> RunResult { Run.command([uv] + args, environment: env) }
        func install(into venv: String) -> RunResult {
            XCTAssertEqual(uvRun(["venv", "-q", tree.path(venv).description]).status, 0)
            let python = tree.path("\(venv)/bin/python").description
            let installed = uvRun([
                "pip", "install", "--offline", "--no-index", "--find-links", wheels, "--python", python, "alpha", "beta"
            ])
            guard installed.status == 0 else { return installed }
            return Run.command([python, "-c", "import alpha, beta; print(alpha.VALUE + beta.VALUE)"])
        }
        let first = install(into: "first")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(CacheFormats.detect(cache), .uv)
        func archives() -> [String: [String]] {
            var out: [String: [String]] = [:]
            for line in Run.command(["sh", "-c", "cd '\(cache.description)/archive-v0' && find . -type f | sort"]).out
                .split(separator: "\n")
            {
                let parts = line.split(separator: "/", maxSplits: 2)
                out[String(parts[1]), default: []].append(String(parts[2]))
            }
            return out
        }
        func dangling() -> String {
            Run.command(["sh", "-c", "cd '\(cache.description)' && find . -xtype l"]).out
        }
        let whole = archives()
        XCTAssertEqual(whole.count, 2, "\(whole)")
        // The oldest file of the cache is one inside alpha's unpacked wheel.
        let oldest = try XCTUnwrap(
            Run.command(["sh", "-c", "cd '\(cache.description)' && ls archive-v0/*/alpha/__init__.py"]).out
                .split(separator: "\n").first)
        XCTAssertEqual(
            Run.command(["touch", "-h", "-d", "10 days ago", cache.description + "/" + oldest]).status, 0)

        // A trim of a few kilobytes: whatever goes, each unpacked wheel is whole or gone with
        // its links, and uv installs again. (Without the environment, whose files are hard
        // links to the unpacked wheels': a trim frees bytes only with their last link.)
        XCTAssertEqual(Run.command(["rm", "-rf", tree.path("first").description]).status, 0)
        // The size prune counts, less 4 KiB.
        let before = try bytesPruneCounts(cache)
        let trim = Binary.run(["prune", cache.description, "--max-size", "\(before - 4096)B", "--trim-to", "1"])
        XCTAssertEqual(trim.status, 0, trim.err)
        for (id, files) in archives() { XCTAssertEqual(files, whole[id], "archive \(id) is whole: \(trim.out)") }
        XCTAssertEqual(dangling(), "", trim.out)
        let second = install(into: "second")
        XCTAssertEqual(second.status, 0, "\(second.err)\n\(trim.out)")
        XCTAssertEqual(second.out, "alphabeta\n")

        // While uv runs, it holds its lock: nothing is deleted.
        let python = tree.path("second/bin/python").description
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = [
            "-c",
            "exec env UV_CACHE_DIR='\(cache.description)' UV_NO_CONFIG=1 '\(uv)' run --offline --no-project "
                + "--python '\(python)' python -c 'import time; time.sleep(60)'"
        ]
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        var held = false
        for _ in 0..<200 where !held {
            held = Run.command(["flock", "-n", "-x", cache.description + "/.lock", "true"]).status != 0
            if !held { usleep(50_000) }
        }
        XCTAssertTrue(held, "uv run took its cache's lock")
        let unpacked = archives()
        XCTAssertEqual(unpacked.count, 2)
        let busy = Binary.run(["prune", cache.description, "--max-size", "1K"])
        XCTAssertTrue(busy.err.contains("in use: another process holds its owner's lock '.lock'"), busy.err)
        XCTAssertEqual(archives(), unpacked, busy.out)
        holder.terminate()
        holder.waitUntilExit()

        // Down to nothing: uv's bookkeeping stays, and uv unpacks the wheels again.
        let all = Binary.run(["prune", cache.description, "--max-size", "1K"])
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertTrue(archives().isEmpty, all.out)
        XCTAssertEqual(dangling(), "", all.out)
        for kept in [".lock", "CACHEDIR.TAG", ".gitignore"] {
            XCTAssertEqual(Run.command(["test", "-e", cache.description + "/" + kept]).status, 0, kept)
        }
        let third = install(into: "third")
        XCTAssertEqual(third.status, 0, third.err)
        XCTAssertEqual(archives().count, 2)
    }
}

/// borg's cache, which borg tags with `CACHEDIR.TAG` and cachectl does not know: its repository
/// folder is one unit. A trim that took some of its files one by one left `borg create`
/// failing from then on; taken whole, borg builds it again.
final class TaggedCacheEndToEndTests: XCTestCase {
    func testATaggedCacheCachectlDoesNotKnowIsTrimmedByUnits() throws {
        guard Run.available("borg") else { throw XCTSkip("borg is not installed (Scripts/test-deps installs it)") }
        let tree = TestTree("borg-real")
        let cache = tree.dir("cache")
        let made = Oracle.python(
            "import os, sys\nfor n, size in (('a', 300000), ('b', 200000)):\n"
                + "    open(os.path.join(sys.argv[1], n), 'wb').write(os.urandom(size))\n",
            [tree.dir("data").description])
        XCTAssertEqual(made.status, 0, made.err)
        let env = [
            "BORG_CACHE_DIR": cache.description, "BORG_BASE_DIR": tree.root.description, "BORG_PASSPHRASE": "",
            "BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK": "yes", "BORG_RELOCATED_REPO_ACCESS_IS_OK": "yes"
        ]
        let (repo, data) = (tree.path("repo").description, tree.path("data").description)
        func borg(_ args: [String]) -> RunResult { Run.command(["borg"] + args, environment: env) }
        XCTAssertEqual(borg(["init", "-e", "none", repo]).status, 0)
        let first = borg(["create", repo + "::one", data])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(Run.command(["test", "-f", cache.description + "/CACHEDIR.TAG"]).status, 0, "borg tags it")
        // Half of what prune counts, so that a trim must take something.
        let before = try bytesPruneCounts(cache)
        let trim = Binary.run(["prune", cache.description, "--max-size", "\(before / 2)B", "--trim-to", "1"])
        XCTAssertEqual(trim.status, 0, trim.err)
        XCTAssertFalse(trim.out.contains("/chunks"), trim.out)
        let second = borg(["create", repo + "::two", data])
        XCTAssertEqual(second.status, 0, "\(second.err)\n\(trim.out)")
        let list = borg(["list", "--short", repo])
        XCTAssertEqual(list.out, "one\ntwo\n", list.err)
    }
}

/// A home whose `~/.cache` holds one cache of each layout cachectl knows: `du`, in its one
/// walk, names every one of them (and `ls` finds the same ones).
final class DuNamesEveryFormatTests: XCTestCase {
    func testEveryLayoutIsNamed() throws {
        let tree = TestTree("every-format")
        let cache = tree.dir("home/.cache")
        let made = Oracle.python(
            """
            import os, sys, struct, subprocess
            c = sys.argv[1]
            def f(p, data=b'x'):
                p = os.path.join(c, p); os.makedirs(os.path.dirname(p), exist_ok=True); open(p, 'wb').write(data)
            f('thumbnails/normal/0123456789abcdef0123456789abcdef.png', b'\\x89PNG\\r\\n\\x1a\\n')
            f('pip/http-v2/a/b/c/d/e/' + 'a' * 56, b'cc=4,')
            f('npm/_cacache/index-v5/aa/bb/cc', b'')
            f('npm/_cacache/content-v2/sha512/aa/bb/cc', b'')
            f('go-build/README', b'This directory holds cached build artifacts from the Go build system.\\n')
            f('ccache/ccache.conf', b'max_size = 1G\\n')
            f('clang/ModuleCache/modules.timestamp', b'')
            f('uv/CACHEDIR.TAG', b'Signature: 8a477f597d28d172789f06886806bc55\\n')
            f('uv/wheels-v8/index/1/beta/1.0-py3-none-any.rev', b'x')
            os.makedirs(os.path.join(c, 'uv/archive-v0/abc/beta'))
            f('huggingface/hub/models--org--m/blobs/e1', b'x')
            f('chromium/Default/Cache/Cache_Data/index', struct.pack('<QQ', 0xfcfb6d1ba7725c30, 9))
            f('mozilla/firefox/p.default/cache2/entries/' + 'A' * 40, b'x')
            os.makedirs(os.path.join(c, 'mozilla/firefox/p.default/cache2/doomed'))
            subprocess.run(['git', 'init', '-q', '--bare', os.path.join(c, \
            'org.swift.swiftpm/repositories/pkg-1a2b3c4d')], check=True)
            f('org.swift.foundation.URLCache/app/1.aGVsbG8=.storedcachedurlresponse', b'x')
            f('apps/Library/Caches/com.hackemist.SDImageCache/default/' + 'a' * 32 + '.png', b'x')
            f('apps/Library/Caches/com.onevcat.Kingfisher.ImageCache.default/' + 'b' * 64, b'x')
            f('apps/Library/Caches/com.pinterest.PINDiskCache.images/https%3A%2F%2Fa', b'x')
            f('apps/Library/Caches/com.github.kean.Nuke.DataCache/.data-cache-info', b'{}')
            f('apps/Library/Caches/Downloads/CachedDownloads.dic', b'<?xml version="1.0"?><plist \
            version="1.0"><dict/></plist>')
            f('tagged/CACHEDIR.TAG', b'Signature: 8a477f597d28d172789f06886806bc55\\n')
            """, [cache.description])
        XCTAssertEqual(made.status, 0, made.err)
        // Apple's URLCache, with CFNetwork's schema.
        URLCacheFixture.write(tree.dir("home/.cache/apps/Library/Caches/com.example.app"), rows: [])
        let env = ["XDG_CACHE_HOME": cache.description, "HOME": tree.path("home").description]
        let du = Binary.run(["du", cache.description, "--json"], environment: env)
        XCTAssertEqual(du.status, 0, du.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(du.stdout)) as? [String: Any])
        let caches = (((object["roots"] as? [[String: Any]])?.first?["caches"]) as? [[String: Any]]) ?? []
        let named = Dictionary(
            caches.compactMap { c -> (String, String)? in
                guard let format = c["format"] as? String else { return nil }
                return (String((c["path"] as? String ?? "").dropFirst(cache.description.count + 1)), format)
            }
        ) { a, _ in a }
        let expected = [
            "thumbnails": "thumbnails", "pip": "pip", "npm/_cacache": "npm", "go-build": "gobuild", "ccache": "ccache",
            "clang/ModuleCache": "clangmodules", "uv": "uv",
            "huggingface/hub": "huggingface", "chromium/Default/Cache/Cache_Data": "chromium",
            "mozilla/firefox/p.default/cache2": "firefox", "org.swift.swiftpm/repositories": "gitmirrors",
            "org.swift.foundation.URLCache": "foundationurlcache",
            "apps/Library/Caches/com.hackemist.SDImageCache": "sdwebimage",
            "apps/Library/Caches/com.onevcat.Kingfisher.ImageCache.default": "kingfisher",
            "apps/Library/Caches/com.pinterest.PINDiskCache.images": "pincache",
            "apps/Library/Caches/com.github.kean.Nuke.DataCache": "nuke",
            "apps/Library/Caches/Downloads": "plist", "apps/Library/Caches/com.example.app": "urlcache"
        ]
        for (path, format) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(named[path], format, "\(path) in \(named)")
        }
        XCTAssertTrue(
            caches.contains {
                ($0["path"] as? String)?.hasSuffix("/tagged") == true && $0["kind"] as? String == "tagged"
            })
    }
}

/// A body lives inside its entry's file: `cat` writes it alone (it wrote the whole file,
/// header, key and end records around the body), and localize does not point a page at
/// the file (an image there is no image).
private func assertBodiesAreReadOut(_ root: RawPath, site: RawPath, port: String, tree: TestTree) throws {
    let url = "http://127.0.0.1:\(port)/s1.js"
    let cat = Binary.run(["cat", url, "--cache", root.description])
    XCTAssertEqual(cat.status, 0, cat.err)
    XCTAssertEqual(cat.stdout, try FileIOProbe.read(site.appending("s1.js")))
    tree.file("page.html", contents: Array("<img src=\"http://127.0.0.1:\(port)/i0.png\">".utf8))
    let localize = Binary.run([
        "localize", tree.path("page.html").description, "--cache", root.description, "-o",
        tree.path("out.html").description
    ])
    XCTAssertEqual(localize.status, 0, localize.err)
    XCTAssertTrue(localize.err.contains("0 rewritten, 1 missing"), localize.err)
}
