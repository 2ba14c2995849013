import XCTest
import Foundation
import CacheKit
import TestSupport

/// Caches Linux users have, laid out as their owners write them, through the built binary.
final class LinuxCachesEndToEndTests: XCTestCase {
    var now: Int { Int(FileTime.now.timeInterval) }

    private func survivors(_ dir: RawPath) -> [String] {
        Run.command(["sh", "-c", "cd '\(dir.description)' && find . ! -type d | sort"]).out.split(separator: "\n").map(String.init)
    }

    private func states(_ root: RawPath) throws -> [String: String] {
        let ls = Binary.run(["ls", root.description, "--json"])
        XCTAssertEqual(ls.status, 0, ls.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ls.stdout)) as? [String: Any])
        let entries = try XCTUnwrap(((object["caches"] as? [[String: Any]])?.first?["entries"] ?? object["entries"]) as? [[String: Any]],
                                    ls.out)
        var out: [String: String] = [:]
        for entry in entries {
            let path = (entry["path"] as? String) ?? ""
            out[String(path.dropFirst(root.description.count + 1))] = entry["state"] as? String
        }
        return out
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
            ("fail/gnome-thumbnail-factory/\(Oracle.md5(uri(gone))).png", uri(gone), "\(now)"),
        ]
        for (relative, uri, mtime) in spec {
            let made = Oracle.python("""
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
        tree.file("cache/go-build/README", contents: Array("This directory holds cached build artifacts from the Go build system.\nRun \"go clean -cache\" if the directory is getting too large.\nRun \"go clean -fuzzcache\" to delete the fuzz cache.\nSee golang.org to learn more about Go.\n".utf8))
        tree.file("cache/go-build/trim.txt", contents: Array("\(now - 7 * 86_400)\n".utf8))
        tree.file("cache/go-build/testexpire.txt", contents: Array("1700000000000000000\n".utf8))
        tree.file("cache/go-build/fuzz/example.com/m/FuzzX/seed", size: 100)
        tree.setModified("cache/go-build/fuzz/example.com/m/FuzzX/seed", secondsSinceEpoch: now - 90 * 86_400)
        tree.setModified("cache/go-build/trim.txt", secondsSinceEpoch: now - 90 * 86_400)
        tree.setModified("cache/go-build/README", secondsSinceEpoch: now - 90 * 86_400)

        var expected: [String] = ["./README", "./fuzz/example.com/m/FuzzX/seed", "./testexpire.txt", "./trim.txt"]
        /// Writes an action naming an output of `content` (the output's name is its SHA-256),
        /// both last used `daysAgo`; returns their relative paths.
        func entry(_ id: String, _ content: [UInt8], daysAgo: Double, recordedSize: Int? = nil, writeOutput: Bool = true) -> (String, String) {
            let action = Oracle.sha256(id)
            let output = Digest.sha256(bytes: content)
            let header = "v1 \(action) \(output) \(String(format: "%20d", recordedSize ?? content.count)) \(String(format: "%20d", 1_700_000_000_000_000_000))\n"
            XCTAssertEqual(header.utf8.count, 175)
            let a = "\(action.prefix(2))/\(action)-a", d = "\(output.prefix(2))/\(output)-d"
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
