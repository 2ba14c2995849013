import CacheKit
import TestSupport
import XCTest

/// Each image library's own clock, size rule and names, on files laid out as the library
/// writes them. The source of each rule is cited at its format
/// (Sources/CacheKitStore/Formats/: SDWebImageFormat, KingfisherFormat, PINCacheFormat, NukeFormat) and in
/// shared/reference/cache-formats.md.
final class OwnerRulesTests: XCTestCase {
    var now: Int { Int(FileTime.now.timeInterval) }
    let hour = 3600
    let day = 86_400

    private func name(_ entry: CacheEntry) -> String { String(decoding: entry.path.lastComponent, as: UTF8.self) }

    private func byName(_ entries: [CacheEntry]) -> [String: CacheEntry] {
        Dictionary(uniqueKeysWithValues: entries.map { (name($0), $0) })
    }

    private func sizePlan(_ format: any CacheFormat, maxSize: Int64, trimTo: Double? = nil) throws -> [String] {
        let entries = try format.entries(InspectionContext())
        let plan = PrunePolicy.plan(
            entries, rules: PruneRules(maxSize: maxSize, trimTo: trimTo), sizeRule: format.sizeRule)
        return plan.deletions.filter { $0.reason == .size }.map { name($0.entry) }
    }

    // MARK: - SDWebImage

    /// SDImageCacheConfig.m:37 (`diskCacheExpireType = SDImageCacheConfigExpireTypeAccessDate`)
    /// and SDDiskCache.m:155-204: expiry by access date, which SDWebImage sets on every read.
    func testSDWebImageExpiresByAccessDateNotModificationDate() throws {
        let tree = TestTree("sd-clock")
        let dir = "com.hackemist.SDImageCache/default"
        let readRecently = Oracle.md5("https://a.example/read-recently.png") + ".png"
        let writtenRecently = Oracle.md5("https://a.example/untouched.png") + ".png"
        tree.file("\(dir)/\(readRecently)", contents: Images.png)
        tree.setTimes("\(dir)/\(readRecently)", accessed: now - hour, modified: now - 30 * day)
        tree.file("\(dir)/\(writtenRecently)", contents: Images.png)
        tree.setTimes("\(dir)/\(writtenRecently)", accessed: now - 8 * day, modified: now - hour)
        let format = try CacheFormats.open(tree.path(dir))
        let entries = byName(try format.entries(InspectionContext()))
        XCTAssertEqual(entries[readRecently]?.state, .fresh, "read an hour ago: within 7 days of its access date")
        XCTAssertEqual(entries[writtenRecently]?.state, .expired, "not read for 8 days")
        XCTAssertEqual(entries[readRecently]?.lastAccess, FileTime(seconds: Int64(now - hour)))
    }

    /// SDDiskCache.m:219-241: oldest access first while the allocated total is not strictly
    /// below half the cap.
    func testSDWebImageTrimsStrictlyBelowHalfByAccessDate() throws {
        let tree = TestTree("sd-trim")
        let dir = "com.hackemist.SDImageCache/default"
        var names: [String] = []
        for i in 0..<5 {
            let name = Oracle.md5("https://a.example/\(i).png") + ".png"
            names.append(name)
            tree.file("\(dir)/\(name)", size: 8192)
            // Access order 0 (oldest) … 4; modification order the reverse.
            tree.setTimes("\(dir)/\(name)", accessed: now - (10 - i) * hour, modified: now - i * hour)
        }
        XCTAssertEqual(tree.allocated("\(dir)/\(names[0])"), 8192)
        let format = try CacheFormats.open(tree.path(dir))
        XCTAssertEqual(format.kind, .sdwebimage)
        // 40 KiB over a 32 KiB cap: half is 16 KiB; strictly below it leaves one file.
        XCTAssertEqual(try sizePlan(format, maxSize: 32 * 1024), Array(names[0..<4]))
        // `--trim-to` still overrides the ratio (the stopping rule stays the owner's).
        XCTAssertEqual(try sizePlan(format, maxSize: 32 * 1024, trimTo: 0.8), Array(names[0..<2]))
    }

    /// SDDiskCache.m:345-387: the path extension cut at `:`, NUL removed, dropped when longer
    /// than 222 characters; lookups fall back to the bare hash (SDDiskCache.m:78-85).
    func testSDWebImageExtensionCleanUp() throws {
        let tree = TestTree("sd-names")
        let dir = "com.hackemist.SDImageCache/default"
        let twitter = "https://pbs.example/media/abc.jpg:large"
        let long = "https://a.example/x." + String(repeating: "e", count: 223)
        let bare = "https://a.example/noext"
        tree.file("\(dir)/\(Oracle.md5(twitter)).jpg", contents: Images.jpeg)
        tree.file("\(dir)/\(Oracle.md5(long))", contents: Images.jpeg)
        tree.file("\(dir)/\(Oracle.md5(bare))", contents: Images.jpeg)
        let format = try CacheFormats.open(tree.path(dir))
        XCTAssertEqual(
            try format.locate(url: twitter, InspectionContext())?.path, tree.path("\(dir)/\(Oracle.md5(twitter)).jpg"))
        XCTAssertEqual(try format.locate(url: long, InspectionContext())?.path, tree.path("\(dir)/\(Oracle.md5(long))"))
        XCTAssertEqual(try format.locate(url: bare, InspectionContext())?.path, tree.path("\(dir)/\(Oracle.md5(bare))"))
    }

    // MARK: - Kingfisher

    /// DiskStorage.swift:465-513: at or over the limit by file sizes, least recently accessed
    /// (creation date) first, down to half. Kingfisher keeps the last access in the creation
    /// date, so the order follows birth time, not the modification date (its expiry).
    func testKingfisherTrimsByBirthTimeAndFileSizesAtTheLimit() throws {
        let tree = TestTree("kf-trim")
        let dir = "com.onevcat.Kingfisher.ImageCache.default"
        var names: [String] = []
        for i in 0..<3 {
            let name = Oracle.sha256("https://cdn.example/\(i).webp")
            names.append(name)
            tree.file("\(dir)/\(name)", size: 5000)
            // Expiry dates ahead, in the reverse of the creation order.
            tree.setModified("\(dir)/\(name)", secondsSinceEpoch: now + (10 - i) * day)
            usleep(20_000)
        }
        let format = try CacheFormats.open(tree.path(dir))
        XCTAssertEqual(format.kind, .kingfisher)
        let entries = byName(try format.entries(InspectionContext()))
        XCTAssertTrue(
            entries.values.allSatisfy { $0.state == .fresh && !$0.reason.contains("no birth time") },
            entries.values.map(\.reason).joined(separator: "; "))
        // 15 000 bytes of files (24 KiB of blocks) at a 15 000-byte limit: Kingfisher trims
        // (≥), to 7 500 bytes, oldest creation first.
        XCTAssertEqual(try sizePlan(format, maxSize: 15_000), Array(names[0..<2]))
        XCTAssertEqual(try sizePlan(format, maxSize: 15_001), [], "below the limit nothing goes")
    }

    // MARK: - PINCache

    /// PINDiskCache.m:832-885: least recently modified first, down to the byte limit itself.
    func testPINCacheTrimsToTheLimitItself() throws {
        let tree = TestTree("pin-trim")
        let dir = "com.pinterest.PINDiskCache.PINRemoteImageManagerCache"
        var names: [String] = []
        for i in 0..<4 {
            let name = "https%3A%2F%2Fp%2Eexample%2F\(i)%2Ejpg"
            names.append(name)
            tree.file("\(dir)/\(name)", size: 8192)
            tree.setModified("\(dir)/\(name)", secondsSinceEpoch: now - (10 - i) * hour)
        }
        let format = try CacheFormats.open(tree.path(dir))
        XCTAssertEqual(format.kind, .pincache)
        XCTAssertEqual(try sizePlan(format, maxSize: 24 * 1024), [names[0]])
    }

    /// PINRemoteImageManager.m:50 and -cacheKeyForURL:processorKey:resume:: a key longer
    /// than 200 UTF-16 units is stored under the lower-case hex MD5 of its UTF-8.
    func testPINRemoteImageLongKeysLiveUnderTheirMD5() throws {
        let tree = TestTree("pin-long")
        let dir = "com.pinterest.PINDiskCache.PINRemoteImageManagerCache"
        let long = "https://p.example/" + String(repeating: "a", count: 190) + ".jpg"  // 212 characters
        let short = "https://p.example/" + String(repeating: "b", count: 178) + ".jpg"  // 200 characters
        XCTAssertEqual(short.utf16.count, 200)
        tree.file("\(dir)/\(Oracle.md5(long))", contents: Images.jpeg)
        let shortName = short.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ".", with: "%2E")
            .replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "/", with: "%2F")
        tree.file("\(dir)/\(shortName)", contents: Images.jpeg)
        let format = try CacheFormats.open(tree.path(dir))
        XCTAssertEqual(try format.locate(url: long, InspectionContext())?.path, tree.path("\(dir)/\(Oracle.md5(long))"))
        XCTAssertEqual(try format.locate(url: short, InspectionContext())?.path, tree.path("\(dir)/\(shortName)"))
    }

    /// PINCache's default serializer writes an NSKeyedArchiver archive: `cat` gives the
    /// archived data back, `localize` never takes the archive for an image.
    func testPINCacheArchivesAreDecodedNotLocalized() throws {
        let tree = TestTree("pin-archive")
        let dir = "com.pinterest.PINDiskCache.images"
        let url = "https://p.example/archived.png"
        let name = "https%3A%2F%2Fp%2Eexample%2Farchived%2Epng"
        tree.dir(dir)
        let made = Oracle.python(
            """
            import plistlib, sys
            archive = {'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': plistlib.UID(1)},
                       '$objects': ['$null', open(sys.argv[2], 'rb').read()]}
            open(sys.argv[1], 'wb').write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY))
            """, [tree.path("\(dir)/\(name)").description, tree.file("raw.png", contents: Images.png).description])
        XCTAssertEqual(made.status, 0, made.err)
        let format = try CacheFormats.open(tree.path(dir))
        let entry = try XCTUnwrap(try format.locate(url: url, InspectionContext()))
        XCTAssertTrue(entry.inlineBody, "an archive is not an image file")
        XCTAssertEqual(entry.state, .fresh)
        XCTAssertEqual(try format.inlineBody(entry), Images.png)
        let result = try Localizer(caches: [tree.path(dir)]).localize(
            Array("<img src=\"\(url)\">".utf8), options: LocalizeOptions())
        XCTAssertEqual(result.references.map(\.outcome), [.missing])
    }

    // MARK: - Nuke

    /// DataCache.swift:37,42,347-371: least recently accessed first down to 0.7 of the limit.
    func testNukeSweepsToSeventyPercentByAccessDate() throws {
        let tree = TestTree("nuke-trim")
        let dir = "com.github.kean.Nuke.DataCache"
        tree.file("\(dir)/.data-cache-info", contents: Array("{}".utf8))
        var names: [String] = []
        for i in 0..<10 {
            let name = Oracle.sha1("https://n.example/\(i)")
            names.append(name)
            tree.file("\(dir)/\(name)", size: 8192)
            tree.setTimes("\(dir)/\(name)", accessed: now - (20 - i) * hour, modified: now - i * hour)
        }
        let format = try CacheFormats.open(tree.path(dir))
        XCTAssertEqual(format.kind, .nuke)
        // 80 KiB over a 72 KiB limit: down to 50.4 KiB leaves six files.
        XCTAssertEqual(try sizePlan(format, maxSize: 72 * 1024), Array(names[0..<4]))
    }

    /// `com.github.kean.Nuke.Cache` is the URLCache of Nuke's default loader, not a DataCache.
    func testNukeCacheFolderIsAURLCache() throws {
        let tree = TestTree("nuke-urlcache")
        let dir = tree.dir("com.github.kean.Nuke.Cache")
        URLCacheFixture.write(dir, rows: [])
        XCTAssertEqual(CacheFormats.detect(dir), .urlcache)
        let entries = try CacheFormats.open(dir).entries(InspectionContext())
        XCTAssertEqual(entries.count, 0, "Cache.db, -wal and -shm are bookkeeping, not entries: \(entries.map(\.path))")
    }

    // MARK: - Structure, not tail bytes

    /// Images with data after their end decode (checked with Pillow, an independent
    /// decoder); images cut in the middle do not. The structure walk agrees with the decoder
    /// on every variant.
    func testStructureWalkAgreesWithADecoder() throws {
        let tree = TestTree("structure")
        let made = Oracle.python(ImageVariants.script, [tree.root.description])
        XCTAssertEqual(made.status, 0, made.err)
        let lines = made.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertGreaterThan(lines.count, 40)
        var whole = 0
        for line in lines {
            let (file, decodes) = (line[0], line[1] == "1")
            let bytes = try FileIOProbe.read(tree.path(file))
            let verdict = ImageSignature.verdict(of: bytes)
            if decodes {
                XCTAssertEqual(verdict, .whole, "\(file) decodes in Pillow")
                whole += 1
            } else {
                XCTAssertNotEqual(verdict, .whole, "\(file) does not decode in Pillow")
            }
        }
        XCTAssertGreaterThan(whole, 20)
    }

    /// A damaged chunk is corrupted whatever its age; a file cut short is incomplete while
    /// young and corrupted once past the grace period.
    func testMalformedAndCutShortByAge() throws {
        let tree = TestTree("damage")
        let dir = "com.hackemist.SDImageCache/default"
        var badCRC = Images.png
        badCRC[29] ^= 0xFF  // inside IHDR's CRC
        let damaged = Oracle.md5("https://a.example/d.png") + ".png"
        let young = Oracle.md5("https://a.example/y.png") + ".png"
        let old = Oracle.md5("https://a.example/o.png") + ".png"
        tree.file("\(dir)/\(damaged)", contents: badCRC)
        tree.file("\(dir)/\(young)", contents: Images.truncated(Images.png))
        tree.file("\(dir)/\(old)", contents: Images.truncated(Images.png))
        tree.setModified("\(dir)/\(old)", secondsSinceEpoch: now - 2 * hour)
        let entries = byName(try CacheFormats.open(tree.path(dir)).entries(InspectionContext()))
        XCTAssertEqual(entries[damaged]?.state, .corrupted)
        XCTAssertEqual(entries[young]?.state, .incomplete)
        XCTAssertEqual(entries[young]?.inGracePeriod, true)
        XCTAssertEqual(entries[old]?.state, .corrupted)
        XCTAssertEqual(entries[old]?.inGracePeriod, false)
    }
}

/// Image variants made by Pillow, with Pillow's verdict on each: whole images of every kind
/// with trailing bytes of the sorts found in real caches, and the same images cut short.
enum ImageVariants {
    static let script = """
        import io, os, sys, random
        from PIL import Image
        out = sys.argv[1]
        random.seed(7)
        img = Image.new('RGB', (48, 48))
        img.putdata([(random.randrange(256), random.randrange(256), random.randrange(256)) for _ in range(48 * 48)])
        encoded = {}
        for name, kw in [('jpeg', dict(format='JPEG', quality=80)), ('progressive', dict(format='JPEG', \
        progressive=True)),
                         ('png', dict(format='PNG')), ('gif', dict(format='GIF')),
                         ('webp', dict(format='WEBP', quality=70)), ('webpll', dict(format='WEBP', lossless=True))]:
            b = io.BytesIO(); img.save(b, **kw); encoded[name] = b.getvalue()
        anim = io.BytesIO()
        img.save(anim, format='GIF', save_all=True, append_images=[img.rotate(90)], duration=100, loop=0)
        encoded['animgif'] = anim.getvalue()
        tails = {'whole': b'', 'zeros': b'\\0' * 300, 'garbage': b'trailing garbage \\xff\\xd8\\xff\\x00',
                 'crlf': b'\\r\\n' + b'\\0' * 64, 'text': b'<!-- saved by a proxy -->\\n'}
        def decodes(data):
            try:
                im = Image.open(io.BytesIO(data)); im.load()
                for i in range(getattr(im, 'n_frames', 1)):
                    im.seek(i); im.load()
                return 1
            except Exception:
                return 0
        for name, data in encoded.items():
            variants = {t: data + tail for t, tail in tails.items()}
            variants['half'] = data[:len(data) // 2]
            variants['third'] = data[:len(data) // 3]
            for t, v in variants.items():
                f = name + '-' + t
                open(os.path.join(out, f), 'wb').write(v)
                print(f, decodes(v))
        """
}
