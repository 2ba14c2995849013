import CacheKit
import TestSupport
import XCTest

@testable import CacheKitStore

/// Each library's layout built as that library writes it, and its own state rules.
final class FormatTests: XCTestCase {
    let now = FileTime.now
    let day = 86_400

    private func ago(_ days: Double) -> Int { Int(now.timeInterval - days * 86_400) }

    private func states(_ format: any CacheFormat, grace: Double = 3600) throws -> [String: (EntryState, String)] {
        let entries = try format.entries(InspectionContext(now: now, graceSeconds: grace))
        return Dictionary(
            uniqueKeysWithValues: entries.map {
                (String(decoding: $0.path.lastComponent, as: UTF8.self), ($0.state, $0.reason))
            })
    }

    func testSDWebImageNamesAgeAndCorruption() throws {
        let tree = TestTree("sd")
        let dir = "com.hackemist.SDImageCache/default"
        let fresh = "https://img.example.com/photos/cat.png?size=large"
        let old = "https://img.example.com/old.jpg"
        let empty = "https://img.example.com/empty.gif"
        let cut = "https://img.example.com/cut.png"
        let freshName = Oracle.md5(fresh) + ".png"  // extension from the path, query ignored
        tree.file("\(dir)/\(freshName)", contents: Images.png)
        tree.file("\(dir)/\(Oracle.md5(old)).jpg", contents: Images.jpeg)
        tree.setModified("\(dir)/\(Oracle.md5(old)).jpg", secondsSinceEpoch: ago(8))
        tree.file("\(dir)/\(Oracle.md5(empty)).gif", size: 0)
        tree.file("\(dir)/\(Oracle.md5(cut)).png", contents: Images.truncated(Images.png))
        // Last written two hours ago: past the grace period, so no writer is still at work.
        tree.setModified("\(dir)/\(Oracle.md5(empty)).gif", secondsSinceEpoch: ago(2.0 / 24))
        tree.setModified("\(dir)/\(Oracle.md5(cut)).png", secondsSinceEpoch: ago(2.0 / 24))
        let writing = "https://img.example.com/writing.png"
        tree.file("\(dir)/\(Oracle.md5(writing)).png", contents: Images.truncated(Images.png))

        let root = tree.path(dir)
        XCTAssertEqual(CacheFormats.detect(root), .sdwebimage)
        let format = try CacheFormats.open(root)
        let s = try states(format)
        XCTAssertEqual(s[freshName]?.0, .fresh)
        XCTAssertEqual(s["\(Oracle.md5(old)).jpg"]?.0, .expired)
        XCTAssertEqual(s["\(Oracle.md5(empty)).gif"]?.0, .corrupted)
        XCTAssertEqual(s["\(Oracle.md5(cut)).png"]?.0, .corrupted)
        XCTAssertTrue(
            s["\(Oracle.md5(cut)).png"]?.1.hasPrefix("PNG without its IEND chunk (cut short)") == true,
            s["\(Oracle.md5(cut)).png"]?.1 ?? "")
        XCTAssertEqual(
            s["\(Oracle.md5(writing)).png"]?.0, .incomplete, "cut short but just written: a writer may be at work")
        XCTAssertEqual(try format.locate(url: fresh, InspectionContext(now: now))?.path, root.appending(freshName))
        XCTAssertNil(try format.locate(url: "https://img.example.com/absent.png", InspectionContext(now: now)))
    }

    func testKingfisherExpiryLivesInTheModificationDate() throws {
        let tree = TestTree("kf")
        let dir = "com.onevcat.Kingfisher.ImageCache.default"
        let live = "https://cdn.example.com/a.webp"
        let dead = "https://cdn.example.com/b.webp"
        let legacy = "https://cdn.example.com/c.gif"  // Kingfisher 7.x named files by MD5
        tree.file("\(dir)/\(Oracle.sha256(live))", contents: Images.webp)
        tree.setModified("\(dir)/\(Oracle.sha256(live))", secondsSinceEpoch: Int(now.timeInterval) + 3 * day)
        tree.file("\(dir)/\(Oracle.sha256(dead))", contents: Images.webp)
        tree.setModified("\(dir)/\(Oracle.sha256(dead))", secondsSinceEpoch: ago(0.1))
        tree.file("\(dir)/\(Oracle.md5(legacy))", contents: Images.gif)
        tree.setModified("\(dir)/\(Oracle.md5(legacy))", secondsSinceEpoch: Int(now.timeInterval) + day)

        let root = tree.path(dir)
        XCTAssertEqual(CacheFormats.detect(root), .kingfisher)
        let format = try CacheFormats.open(root)
        let s = try states(format)
        XCTAssertEqual(s[Oracle.sha256(live)]?.0, .fresh)
        XCTAssertEqual(s[Oracle.sha256(dead)]?.0, .expired)
        XCTAssertEqual(try format.locate(url: legacy, InspectionContext(now: now))?.state, .fresh)
        XCTAssertEqual(try format.locate(url: dead, InspectionContext(now: now))?.state, .expired)
    }

    func testKingfisherDetectedByNamesAlone() {
        let tree = TestTree("kfnames")
        for i in 0..<5 { tree.file("cache/\(Oracle.sha256("https://x.com/\(i)"))", contents: Images.gif) }
        XCTAssertEqual(CacheFormats.detect(tree.path("cache")), .kingfisher)
    }

    /// PINCache has no age limit unless the app sets one (PINDiskCache.m: `_ageLimit` 0 by
    /// default); a per-object TTL lives in the `com.pinterest.PINDiskCache.ageLimit` xattr.
    func testPINCacheNamesAreReversibleAndAgeLimitOnlyWhenSet() throws {
        let tree = TestTree("pin")
        let dir = "com.pinterest.PINDiskCache.images"
        let young = "https://pics.example.com/a/b.jpg"
        let old = "https://pics.example.com/50%off.jpg"
        let youngName = "https%3A%2F%2Fpics%2Eexample%2Ecom%2Fa%2Fb%2Ejpg"
        let oldName = "https%3A%2F%2Fpics%2Eexample%2Ecom%2F50%25off%2Ejpg"
        tree.file("\(dir)/\(youngName)", contents: Images.jpeg)
        tree.file("\(dir)/\(oldName)", contents: Images.jpeg)
        tree.setModified("\(dir)/\(oldName)", secondsSinceEpoch: ago(400))
        let ttl = "https://pics.example.com/ttl.jpg"
        let ttlName = "https%3A%2F%2Fpics%2Eexample%2Ecom%2Fttl%2Ejpg"
        tree.file("\(dir)/\(ttlName)", contents: Images.jpeg)
        // A 1-second TTL as PINDiskCache writes it: setxattr of a binary NSTimeInterval
        // (a user.-namespace attribute once copied to Linux).
        let set = Oracle.python(
            """
            import os, struct, sys; os.setxattr(sys.argv[1], 'user.com.pinterest.PINDiskCache.ageLimit', \
            struct.pack('<d', 1.0))
            """,
            [tree.path("\(dir)/\(ttlName)").description])
        XCTAssertEqual(set.status, 0, set.err)
        let root = tree.path(dir)
        XCTAssertEqual(CacheFormats.detect(root), .pincache)
        let format = try CacheFormats.open(root)
        let entries = try format.entries(InspectionContext(now: FileTime.now.adding(5)))
        XCTAssertEqual(Set(entries.compactMap(\.url)), [young, old, ttl], "the name gives the URL back")
        XCTAssertEqual(entries.first { $0.url == old }?.state, .fresh, "no age limit unless the app sets one")
        XCTAssertEqual(entries.first { $0.url == young }?.state, .fresh)
        XCTAssertEqual(entries.first { $0.url == ttl }?.state, .expired, "its own 1-second ageLimit has passed")
        XCTAssertEqual(try format.locate(url: old, InspectionContext(now: now))?.path, root.appending(oldName))
    }

    func testNukeHasNoAgeRuleButEmptyBodiesAreCorrupted() throws {
        let tree = TestTree("nuke")
        let dir = "com.github.kean.Nuke.DataCache"
        tree.file("\(dir)/.data-cache-info", contents: Array("{\"version\":1}".utf8))
        let url = "https://example.com/n.png"
        tree.file("\(dir)/\(Oracle.sha1(url))", contents: Images.png)
        tree.setModified("\(dir)/\(Oracle.sha1(url))", secondsSinceEpoch: ago(400))
        tree.file("\(dir)/\(Oracle.sha1("https://example.com/e"))", size: 0)
        tree.setModified("\(dir)/\(Oracle.sha1("https://example.com/e"))", secondsSinceEpoch: ago(1))
        let root = tree.path(dir)
        XCTAssertEqual(CacheFormats.detect(root), .nuke)
        let format = try CacheFormats.open(root)
        let s = try states(format)
        XCTAssertEqual(s.count, 2, "the hidden info file is not an entry")
        XCTAssertEqual(s[Oracle.sha1(url)]?.0, .fresh)
        XCTAssertEqual(s[Oracle.sha1("https://example.com/e")]?.0, .corrupted)
        XCTAssertEqual(try format.locate(url: url, InspectionContext(now: now))?.state, .fresh)
    }

    func testPlainFolderPartialDownloadsAndTruncatedImages() throws {
        let tree = TestTree("plain")
        tree.file("dl/movie.mp4.part", size: 5000)
        tree.setModified("dl/movie.mp4.part", secondsSinceEpoch: ago(1))
        tree.file("dl/live.crdownload", size: 5000)
        tree.file("dl/photo.jpg", contents: Images.truncated(Images.jpeg))
        tree.setModified("dl/photo.jpg", secondsSinceEpoch: ago(1))
        tree.file("dl/sub/ok.gif", contents: Images.gif)
        let format = try CacheFormats.open(tree.path("dl"), as: .plain)  // declared: file by file
        XCTAssertEqual(format.kind, .plain)
        let s = try states(format)
        XCTAssertEqual(s["movie.mp4.part"]?.0, .incomplete)
        XCTAssertEqual(s["live.crdownload"]?.0, .fresh, "a young partial download may still be written")
        XCTAssertEqual(s["photo.jpg"]?.0, .corrupted)
        XCTAssertEqual(s["ok.gif"]?.0, .fresh)
    }

    /// A folder cachectl does not understand, neither tagged nor declared: each loose file,
    /// and each subdirectory as one unit (its newest file's time, the bytes its deletion
    /// frees); tagged or declared, file by file.
    func testUnknownStructureIsTakenByUnits() throws {
        let tree = TestTree("units")
        tree.file("c/loose.bin", size: 5000)
        tree.file("c/mirror.git/objects/pack/p.pack", size: 40_000)
        tree.setModified("c/mirror.git/objects/pack/p.pack", secondsSinceEpoch: ago(90))
        tree.file("c/mirror.git/HEAD", size: 20)
        tree.setModified("c/mirror.git/HEAD", secondsSinceEpoch: ago(2))
        tree.file("c/linked/own", size: 8192)
        tree.file("c/linked/shared", size: 16_384)
        tree.hardLink("c/linked/shared", "elsewhere")
        let format = try CacheFormats.open(tree.path("c"))
        XCTAssertEqual(format.kind, .plain)
        let entries = try format.entries(InspectionContext(now: now))
        let byName = Dictionary(
            uniqueKeysWithValues: entries.map { (String(decoding: $0.path.lastComponent, as: UTF8.self), $0) })
        XCTAssertEqual(Set(byName.keys), ["loose.bin", "mirror.git", "linked"])
        XCTAssertEqual(byName["mirror.git"]?.isUnit, true)
        XCTAssertEqual(
            byName["mirror.git"]?.modified?.timeInterval, Double(ago(2)), "a unit's time is its newest file's")
        XCTAssertEqual(
            byName["mirror.git"]?.allocatedBytes,
            tree.allocated("c/mirror.git/objects/pack/p.pack") + tree.allocated("c/mirror.git/HEAD"))
        XCTAssertEqual(
            byName["linked"]?.allocatedBytes, tree.allocated("c/linked/own"), "a file linked from outside frees nothing"
        )
        XCTAssertTrue(byName["linked"]?.reason.contains("hard-linked from outside") == true)

        // A tag says the folder's contents may go, not each file on its own: units still.
        tree.file("c/CACHEDIR.TAG", contents: Array("Signature: 8a477f597d28d172789f06886806bc55\n".utf8))
        let tagged = try CacheFormats.open(tree.path("c")).entries(InspectionContext(now: now))
        XCTAssertEqual(tagged.filter(\.isUnit).count, 2, "a tagged folder is taken by units too")
        XCTAssertEqual(tagged.count, 3)
        let declared = try CacheFormats.open(tree.path("c"), as: .plain).entries(InspectionContext(now: now))
        XCTAssertEqual(declared.filter(\.isUnit).count, 0, "--format plain: file by file")
        XCTAssertEqual(declared.count, 5)
    }

    func testImageSignatures() {
        let tree = TestTree("img")
        for (name, bytes) in [("p", Images.png), ("j", Images.jpeg), ("g", Images.gif), ("w", Images.webp)] {
            let whole = tree.file(name, contents: bytes)
            let cut = tree.file(name + "-cut", contents: Images.truncated(bytes))
            XCTAssertNil(ImageSignature.truncation(of: whole, size: Int64(bytes.count)), name)
            XCTAssertNotNil(ImageSignature.truncation(of: cut, size: Int64(bytes.count - 5)), name)
        }
        let text = tree.file("t", contents: Array("hello".utf8))
        XCTAssertNil(ImageSignature.truncation(of: text, size: 5))
    }
}

/// The seed design's plist-indexed download cache.
final class PlistDownloadCacheTests: XCTestCase {
    /// Writes CachedDownloads.dic with plistlib (XML or binary) from a Python literal.
    private func writeIndex(_ root: RawPath, binary: Bool, items: String) {
        let code = """
            import plistlib, sys, datetime
            now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
            d = lambda **kw: now + datetime.timedelta(**kw)
            items = \(items)
            with open(sys.argv[1], 'wb') as f:
                plistlib.dump(items, f, fmt=plistlib.FMT_BINARY if sys.argv[2] == '1' else plistlib.FMT_XML)
            """
        let result = Oracle.python(code, [root.appending("CachedDownloads.dic").description, binary ? "1" : "0"])
        XCTAssertEqual(result.status, 0, result.err)
    }

    private func fixture(binary: Bool) -> (TestTree, RawPath) {
        let tree = TestTree("plist")
        let root = tree.dir("Downloads")
        tree.file("Downloads/examplecomfresh.cache", size: 3000)
        tree.file("Downloads/examplecomold.cache", size: 3000)
        tree.file("Downloads/examplecompartial.cache", size: 100)
        // An unfinished download's grace counts from its body's last write.
        tree.setModified(
            "Downloads/examplecompartial.cache", secondsSinceEpoch: Int(FileTime.now.timeInterval) - 5 * 3600)
        tree.file("Downloads/stray.bin", size: 100)
        tree.setModified("Downloads/stray.bin", secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)
        let outside = TestTree("plist-outside")
        outside.file("elsewhere.cache", size: 4000)
        let r = root.description
        writeIndex(
            root, binary: binary,
            items: """
                {
                  'http://example.com/fresh': {'DownloadStartDate': d(hours=-1), 'DownloadEndDate': d(minutes=-59), \
                'ExpiresInSeconds': 86400, 'ExpiryDate': d(hours=23), 'LocalURL': '\(r)/examplecomfresh.cache', \
                'Custom': 'kept'},
                  'http://example.com/old': {'DownloadStartDate': d(days=-3), 'DownloadEndDate': d(days=-3), \
                'ExpiresInSeconds': 3600, 'ExpiryDate': d(days=-2), 'LocalURL': '\(r)/examplecomold.cache'},
                  'http://example.com/partial': {'DownloadStartDate': d(hours=-5), 'ExpiresInSeconds': 3600, \
                'LocalURL': '\(r)/examplecompartial.cache'},
                  'http://example.com/running': {'DownloadStartDate': d(minutes=-1), 'ExpiresInSeconds': 3600, \
                'LocalURL': '\(r)/examplecomrunning.cache'},
                  'http://example.com/gone': {'DownloadStartDate': d(hours=-2), 'DownloadEndDate': d(hours=-2), \
                'ExpiryDate': d(days=1), 'LocalURL': '\(r)/examplecomgone.cache'},
                  'http://example.com/escape': {'DownloadStartDate': d(hours=-2), 'DownloadEndDate': d(hours=-2), \
                'ExpiryDate': d(days=-1), 'LocalURL': '\(outside.path("elsewhere.cache").description)'},
                  'http://example.com/dotdot': {'DownloadStartDate': d(hours=-2), 'DownloadEndDate': d(hours=-2), \
                'ExpiryDate': d(days=-1), 'LocalURL': '\(r)/../x.cache'},
                }
                """)
        withExtendedLifetime(outside) {}
        return (tree, root)
    }

    func testStatesByTheSeedDesignsRules() throws {
        for binary in [false, true] {
            let (tree, root) = fixture(binary: binary)
            XCTAssertEqual(CacheFormats.detect(root), .plist)
            let format = try CacheFormats.open(root)
            let entries = try format.entries(InspectionContext())
            let byURL = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.url.map { ($0, e.state) } })
            XCTAssertEqual(byURL["http://example.com/fresh"], .fresh)
            XCTAssertEqual(byURL["http://example.com/old"], .expired)
            XCTAssertEqual(byURL["http://example.com/partial"], .incomplete)
            XCTAssertEqual(
                byURL["http://example.com/running"], .fresh, "a download younger than the grace period is left alone")
            XCTAssertEqual(byURL["http://example.com/gone"], .corrupted)
            XCTAssertEqual(byURL["http://example.com/escape"], .outside)
            XCTAssertEqual(byURL["http://example.com/dotdot"], .outside)
            XCTAssertEqual(entries.first { $0.path == root.appending("stray.bin") }?.state, .orphan)
            XCTAssertEqual(
                try format.locate(url: "HTTP://example.com/fresh", InspectionContext())?.state, .fresh,
                "keys are lower-cased URLs")
            withExtendedLifetime(tree) {}
        }
    }

    func testRemovingItemsKeepsEveryOtherKeyValueAndTheFormat() throws {
        for binary in [false, true] {
            let (tree, root) = fixture(binary: binary)
            let format = try XCTUnwrap(try CacheFormats.open(root) as? PlistDownloadCache)
            _ = try format.removingItems(["http://example.com/old"])
            let check = Oracle.python(
                """
                import plistlib, sys
                raw = open(sys.argv[1], 'rb').read()
                d = plistlib.loads(raw)
                print(raw.startswith(b'bplist00'), sorted(d), d['http://example.com/fresh']['Custom'], \
                d['http://example.com/fresh']['ExpiresInSeconds'])
                """, [root.appending("CachedDownloads.dic").description])
            XCTAssertEqual(
                check.out,
                """
                \(binary ? "True" : "False") ['http://example.com/dotdot', 'http://example.com/escape', \
                'http://example.com/fresh', 'http://example.com/gone', 'http://example.com/partial', \
                'http://example.com/running'] kept 86400\n
                """,
                check.err)
            withExtendedLifetime(tree) {}
        }
    }

    func testMalformedPlistIsAClearError() {
        let tree = TestTree("badplist")
        tree.file("c/CachedDownloads.dic", contents: Array("<?xml version=\"1.0\"?><plist><dict><key>x".utf8))
        XCTAssertThrowsError(try CacheFormats.open(tree.path("c"))) { error in
            guard case StoreError.malformedPlist(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, tree.path("c/CachedDownloads.dic"))
        }
    }

    /// A damaged binary index is refused with a message naming it. Foundation's parser, which
    /// reads the index, stopped the process (a segmentation fault) on this one: a mutated
    /// plist whose array marker became a set's. 20,000 more mutations of a binary and of an
    /// XML index are each read or refused.
    func testDamagedIndexesAreRefusedNotFatal() throws {
        let tree = TestTree("plist-damaged")
        let root = tree.dir("Downloads")
        let setInsteadOfArray =
            "YnBsaXN0MDDSAQIDDl5odHRwOi8vYS94LnBuZ1podHRwOi8vYi95wwQFBgcICQoLDA1TZW5kV2V4cGlyZXNUZmlsZVRzaXplVXN0"
            + "YXJ0M0HFocTAAAAAM0HLCAAAAN4AVXgucG5nETA5M0HFoRwAAAAA0QgNCA0cJzI2PkNITldgZmlyAAAAAAAAAQEAAAAAAAAADwAA"
            + "AAAAAAAAAAAAAAAAAHU="
        tree.file("Downloads/CachedDownloads.dic", contents: Array(Data(base64Encoded: setInsteadOfArray)!))
        XCTAssertThrowsError(try CacheFormats.open(root).entries(InspectionContext())) { error in
            XCTAssertTrue("\(error)".contains("CachedDownloads.dic"), "\(error)")
        }
        let index = root.appending("CachedDownloads.dic")
        for binary in [true, false] {
            writeIndex(
                root, binary: binary, items: "{'http://a/x.png': {'DownloadStartDate': d(hours=-1), 'Size': [1, 2.5]}}")
            let valid = try FileIOProbe.read(index)
            XCTAssertNoThrow(try PlistDownloadCache.parse(valid, index: index))
            for seed in 0..<UInt64(10_000) {
                var random = DecoderRobustnessTests.Seeded(state: seed)
                let bytes = DecoderRobustnessTests.mutate(valid, &random)
                _ = try? PlistDownloadCache.parse(bytes, index: index)
            }
        }
    }
}

extension FormatTests {
    /// A Chromium code cache's keys are `_key<url> \n<origin>` (generated_code_cache.cc): the
    /// entry's URL is the resource's (it was the last word, `\nhttp://origin/`), and its
    /// eviction is least recently used first (simple_index.cc: `use_size_heuristic` is false
    /// for `GENERATED_BYTE_CODE_CACHE`); the HTTP cache's stays weighed by size.
    func testAChromiumCodeCacheIsNamedAndEvictedAsChromiumDoes() throws {
        XCTAssertEqual(
            ChromiumSimpleCacheFormat.url(ofKey: "_keyhttp://127.0.0.1:8772/js/0.js \nhttp://127.0.0.1/"),
            "http://127.0.0.1:8772/js/0.js")
        XCTAssertEqual(
            ChromiumSimpleCacheFormat.url(ofKey: "1/0/_dk_http://a.example http://a.example http://a.example/x.png"),
            "http://a.example/x.png")
        let tree = TestTree("chromium-code")
        var index: [UInt8] = []
        withUnsafeBytes(of: ChromiumSimpleCacheFormat.initialMagic.littleEndian) { index += $0 }
        for folder in ["Code Cache/js", "Cache/Cache_Data"] {
            tree.file("\(folder)/index", contents: index + [UInt8](repeating: 0, count: 16))
            let format = try CacheFormats.open(tree.path(folder))
            XCTAssertEqual(format.kind, .chromium)
            XCTAssertEqual(format.sizeRule.byAgeTimesSize, folder == "Cache/Cache_Data", folder)
        }
    }

    /// ccache's locks beside what they guard (`stats.lock`, a symlink naming its holder, and
    /// `stats.alive`, util/LockFile.cpp) are its bookkeeping, never entries: they were listed
    /// as entries and chosen by `--max-size`, and deleting a held one lets two ccaches write
    /// `stats` at once.
    func testCcacheLocksAreNeverEntries() throws {
        let tree = TestTree("ccache-locks")
        tree.file("ccache.conf", contents: Array("max_size = 1G\n".utf8))
        tree.file("a/b/0123456789abcdefghijklmnopqrstuvR", contents: [0xcc, 0xac] + Array(repeating: 1, count: 100))
        tree.file("a/stats", contents: Array("0\n".utf8))
        tree.symlink("host-1234", at: "a/stats.lock")
        tree.file("a/stats.alive", contents: [])
        tree.file("a/b/stats.alive", contents: [])
        let entries = try CacheFormats.open(tree.root).entries(InspectionContext())
        XCTAssertEqual(
            entries.compactMap(\.relativePath).map { String(decoding: $0, as: UTF8.self) },
            [
                "a/b/0123456789abcdefghijklmnopqrstuvR"
            ])
    }

    /// `cat` of a Chromium entry gives stream 1 alone, the body; a media entry fetched in
    /// ranges keeps its body in a sparse `_s` file, and is refused by name rather than given
    /// as an empty or partial body.
    func testAChromiumBodyIsStreamOneAndARangedOneIsRefused() throws {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func crc(_ b: [UInt8]) -> UInt32 { CRC32.finish(CRC32.update(CRC32.initial, b)) }
        func eof(_ stream: [UInt8]) -> [UInt8] {
            le(ChromiumSimpleCacheFormat.finalMagic) + le(UInt32(1)) + le(crc(stream)) + le(Int32(stream.count))
                + [0, 0, 0, 0]
        }
        let key = Array("1/0/_dk_http://a.example http://a.example http://a.example/x.png".utf8)
        let body = Array("\u{89}PNG body".utf8)
        let head = Array("HTTP/1.1 200 OK\0Content-Type: image/png\0\0".utf8)
        let file =
            le(ChromiumSimpleCacheFormat.initialMagic) + le(UInt32(5)) + le(UInt32(key.count)) + le(UInt32(0))
            + [0, 0, 0, 0] + key + body + eof(body) + head + eof(head)
        let tree = TestTree("chromium-body")
        tree.file(
            "Cache_Data/index", contents: le(ChromiumSimpleCacheFormat.initialMagic) + [UInt8](repeating: 0, count: 16))
        tree.file("Cache_Data/0123456789abcdef_0", contents: file)
        let root = tree.path("Cache_Data")
        let read = try CacheReader.body(url: "http://a.example/x.png", root: root, allowStale: false)
        var bytes: [UInt8] = []
        try read.write { bytes += $0 }
        XCTAssertEqual(bytes, body)
        tree.file("Cache_Data/0123456789abcdef_s", contents: [1, 2, 3])
        XCTAssertThrowsError(try CacheReader.body(url: "http://a.example/x.png", root: root, allowStale: false)) {
            XCTAssertTrue("\($0)".contains("stored in ranges"), "\($0)")
        }
    }

    /// A thumbnail whose source is on removable media not mounted now is kept as the spec
    /// keeps remote ones, until not read for 30 days (thumbnail-spec.sgml:632-680): it was
    /// expired at once, as though the file were gone, each time the stick was out.
    func testThumbnailsOfUnmountedMediaAreKeptThirtyDaysFromTheirLastRead() {
        let context = InspectionContext(now: now)
        let stick = "file:///media/cachectl-no-such-volume-\(getpid())/DCIM/a.jpg"
        let recent = FileTime(seconds: Int64(ago(2)))
        let old = FileTime(seconds: Int64(ago(40)))
        XCTAssertEqual(ThumbnailsFormat.state(uri: stick, mtime: "1", accessed: recent, context).0, .fresh)
        XCTAssertEqual(ThumbnailsFormat.state(uri: stick, mtime: "1", accessed: old, context).0, .expired)
        let udisks = "file:///run/media/someone/CAMERA-\(getpid())/a.jpg"
        XCTAssertEqual(ThumbnailsFormat.state(uri: udisks, mtime: "1", accessed: recent, context).0, .fresh)
        // Elsewhere a missing source is gone.
        let gone = "file:///tmp/cachectl-no-such-folder-\(getpid())/a.jpg"
        XCTAssertEqual(ThumbnailsFormat.state(uri: gone, mtime: "1", accessed: recent, context).0, .expired)
    }
}
