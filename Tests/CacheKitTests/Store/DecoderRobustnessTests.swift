import CacheKitSupport
import Foundation
import TestSupport
import XCTest

@testable import CacheKitFetch
@testable import CacheKitStore

/// The decoders of what other programs and servers write — binary plists, keyed archives,
/// MessagePack, image headers, HTTP dates and freshness headers — given valid inputs mutated
/// at random (bytes flipped, inserted, removed, the input cut short, spans repeated): each
/// answers or refuses, and none stops the process. The generator is seeded, so a failure
/// reproduces; the seed is in every message.
final class DecoderRobustnessTests: XCTestCase {
    /// The seeded generator the fast-path tests use (SplitMix64).
    typealias Seeded = FastPathTests.SplitMix

    /// `input` changed in 1-8 places.
    static func mutate(_ input: [UInt8], _ random: inout Seeded) -> [UInt8] {
        var bytes = input
        let interesting: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0F, 0x10, 0xD0, 0xDC, 0xCF, 0xD3, 0x4F, 0x5F, 0x6F]
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            guard !bytes.isEmpty else {
                bytes.append(UInt8.random(in: 0...255, using: &random))
                continue
            }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes[at] = interesting.randomElement(using: &random)!
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
            case 3: bytes.remove(at: at)
            case 4: bytes.removeSubrange(at...)
            default:
                let end = min(bytes.count, at + Int.random(in: 1...16, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
            }
        }
        return bytes
    }

    private static let plist = Array(
        Data(
            base64Encoded:
                "YnBsaXN0MDDRAQJfEBhodHRwOi8vZXhhbXBsZS5jb20vYS5wbmfWAwQFBgcICQoPEBESU2VuZFRsaXN0U25lZ1Jv"
                + "a1RzaXplVXN0YXJ0M0HFocTAAAAApAsMDQ4QASNABAAAAAAAAFF4QgABE//////////7CRMAAAAcvpkaFDNBxaEc"
                + "AAAAAAgLJjM3PEBDSE5XXF5naWx1dn8AAAAAAAABAQAAAAAAAAATAAAAAAAAAAAAAAAAAAAAiA==")!)
    private static let archive = Array(
        Data(
            base64Encoded:
                "YnBsaXN0MDDUAQIDBAUGGRxZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2"
                + "ZXKlBwgREhNVJG51bGzTCQoLDA0PViRjbGFzc1dOUy5rZXlzWk5TLm9iamVjdHOABKEOgAKhEIADU2tleVV2YWx1"
                + "ZdIUFRYXWCRjbGFzc2VzWiRjbGFzc25hbWWiFxhcTlNEaWN0aW9uYXJ5WE5TT2JqZWN00RobVHJvb3SAARIAAYag"
                + "CBEbJCkyREpQV15mcXN1d3l7f4WKk56hrre6v8EAAAAAAAABAQAAAAAAAAAdAAAAAAAAAAAAAAAAAAAAxg==")!)
    /// A map of a string, an array (int, negative int, float, binary, nil, bool) and a uint64.
    private static let messagePack: [UInt8] =
        [
            0x83, 0xA3, 0x6B, 0x65, 0x79, 0xA5, 0x76, 0x61, 0x6C, 0x75, 0x65, 0xA4, 0x6C, 0x69, 0x73, 0x74, 0x96, 0x01,
            0xD0,
            0x85, 0xCB, 0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18, 0xC4, 0x02, 0x00, 0x01, 0xC0, 0xC3, 0xA4, 0x73,
            0x69,
            0x7A, 0x65, 0xCF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
        ]

    func testBinaryPlistsAndKeyedArchives() {
        XCTAssertNotNil(BinaryPlist.parse(Self.plist))
        XCTAssertNotNil(KeyedArchive.decode(Self.archive))
        for seed in 0..<UInt64(20000) {
            var random = Seeded(state: seed)
            let mutated = Self.mutate(seed % 2 == 0 ? Self.plist : Self.archive, &random)
            _ = BinaryPlist.parse(mutated)
            _ = KeyedArchive.decode(mutated)
        }
    }

    func testMessagePack() {
        XCTAssertNotNil(MessagePack.decode(Self.messagePack[...]))
        for seed in 0..<UInt64(20000) {
            var random = Seeded(state: seed)
            _ = MessagePack.decode(Self.mutate(Self.messagePack, &random)[...])
        }
    }

    /// Read from a file a window at a time (pip's legacy entries, whose bodies are stepped
    /// over), a value is the one read from memory: the same mutated inputs, behind a prefix,
    /// through windows of 1 to 9 bytes. With strings longer than a few bytes stepped over,
    /// each stands where the one read from memory stands, as long as it.
    func testMessagePackReadFromAFileIsAsReadInMemory() throws {
        let tree = TestTree("msgpack-file")
        let path = tree.file("entry", contents: [])
        let fd = open(path.description, O_RDWR)
        defer { close(fd) }
        let prefix = Array("cc=4,".utf8)
        for seed in 0..<UInt64(20000) {
            var random = Seeded(state: seed)
            let input = seed == 0 ? Self.messagePack : Self.mutate(Self.messagePack, &random)
            let bytes = prefix + input
            XCTAssertEqual(ftruncate(fd, 0), 0)
            XCTAssertEqual(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }, bytes.count)
            let window = Int.random(in: 1...9, using: &random)
            let longest = seed % 2 == 0 ? Int.max : Int.random(in: 0...8, using: &random)
            let fromFile = try MessagePack.decode(
                size: bytes.count, from: prefix.count, longest: longest, window: window
            ) { try FileIO.read(fd, at: $0, count: $1) }
            let inMemory = MessagePack.decode(input[...])
            if seed == 0 { XCTAssertNotNil(fromFile) }
            XCTAssertTrue(
                Self.same(fromFile, inMemory, longest: longest),
                "seed \(seed), window \(window), longest \(longest): \(String(describing: fromFile)) from the file, "
                    + "\(String(describing: inMemory)) from memory")
        }
    }

    /// Whether a value read from a file with strings over `longest` stepped over is `memory`.
    private static func same(_ file: MessagePack.Value?, _ memory: MessagePack.Value?, longest: Int) -> Bool {
        switch (file, memory) {
        case (nil, nil): return true
        case (.skipped(let n)?, .bytes(let b)?): return n == b.count && n > longest
        // A text string's length in bytes is gone once decoded (invalid UTF-8 is replaced).
        case (.skipped(let n)?, .string?): return n > longest
        case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern  // NaN too
        case (.array(let x)?, .array(let y)?):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, longest: longest) }
        case (.map(let x)?, .map(let y)?):
            return x.count == y.count
                && zip(x, y).allSatisfy { same($0.0, $1.0, longest: longest) && same($0.1, $1.1, longest: longest) }
        case (let x?, let y?): return x == y
        default: return false
        }
    }

    /// Firefox's cache2 entries, now read from their end (the metadata, and the data only to
    /// check chunks): a valid entry made here reads as valid, from memory and from a file
    /// alike; mutated at random, each answers or refuses, the same way both ways.
    func testFirefoxEntriesReadFromTheirEnd() throws {
        let key = Array(":http://a.example/x.png".utf8)
        let name = try XCTUnwrap(Digest.sri("sha1", key)).uppercased()
        func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        let data = [UInt8](repeating: 0x78, count: 300)
        let chunkHash = UInt16(truncatingIfNeeded: FirefoxCacheFormat.lookup2(data[...]))
        // {version, fetch count, last fetched, last modified, frecency, expiration, key size, flags}
        let header = [3, 1, 1_700_000_000, 1_700_000_000, 0, 1_900_000_000, key.count, 0].flatMap(be32)
        let rest = [UInt8(chunkHash >> 8), UInt8(chunkHash & 0xFF)] + header + key + [0] + Array("a\0b\0".utf8)
        let entry = data + be32(Int(FirefoxCacheFormat.lookup2(rest[...]))) + rest + be32(data.count)
        let tree = TestTree("firefox-entry")
        let path = tree.file("entry", contents: [])
        let fd = open(path.description, O_RDWR)
        defer { close(fd) }
        func fromFile(_ bytes: [UInt8], verify: Bool) throws -> Result<
            FirefoxCacheFormat.Metadata, ChromiumSimpleCacheFormat.CheckFailure
        > {
            XCTAssertEqual(ftruncate(fd, 0), 0)
            XCTAssertEqual(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }, bytes.count)
            return try FirefoxCacheFormat.parse(size: bytes.count, name: name, verifyChunks: verify) {
                try FileIO.read(fd, at: $0, count: $1)
            }
        }
        for verify in [false, true] {
            let valid = try fromFile(entry, verify: verify)
            XCTAssertEqual(try valid.get().key, String(decoding: key, as: UTF8.self))
            XCTAssertEqual(try valid.get().expiration, 1_900_000_000)
        }
        for seed in 0..<UInt64(5000) {
            var random = Seeded(state: seed)
            let mutated = Self.mutate(entry, &random)
            let verify = seed % 2 == 0
            let memory = FirefoxCacheFormat.parse(mutated, name: name, verifyChunks: verify)
            let file = try fromFile(mutated, verify: verify)
            XCTAssertEqual(
                (try? memory.get())?.key, (try? file.get())?.key, "seed \(seed)")
        }
    }

    /// Chromium's simple-cache `_0` files, now checked where their parts lie (header and key
    /// from the start, end records from the end, CRC-32s a block at a time): a valid entry
    /// made here checks out, from memory and from a file alike; mutated at random, each
    /// answers or refuses, the same way both ways.
    func testChromiumEntriesCheckedWhereTheirPartsLie() throws {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func crc(_ b: [UInt8]) -> UInt32 { CRC32.finish(CRC32.update(CRC32.initial, b)) }
        let key = Array("1/0/_dk_http://a.example http://a.example http://a.example/x.png".utf8)
        let stream0 = Array("HTTP/1.1 200 OK\0\0".utf8)
        func eof(_ flags: UInt32, _ stream: [UInt8]) -> [UInt8] {
            le(ChromiumSimpleCacheFormat.finalMagic) + le(flags) + le(crc(stream)) + le(Int32(stream.count)) + [
                0, 0, 0, 0
            ]
        }
        // Stream 1 over two of the check's 64 KiB blocks for the valid entry, short for the mutations.
        func entry(_ stream1: [UInt8]) -> [UInt8] {
            le(ChromiumSimpleCacheFormat.initialMagic) + le(UInt32(5)) + le(UInt32(key.count)) + le(UInt32(0))
                + [0, 0, 0, 0] + key + stream1 + eof(1, stream1) + stream0 + eof(1, stream0)
        }
        let tree = TestTree("chromium-entry")
        let path = tree.file("entry_0", contents: [])
        let fd = open(path.description, O_RDWR)
        defer { close(fd) }
        func fromFile(_ bytes: [UInt8]) throws -> Result<String, ChromiumSimpleCacheFormat.CheckFailure> {
            XCTAssertEqual(ftruncate(fd, 0), 0)
            XCTAssertEqual(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }, bytes.count)
            return try ChromiumSimpleCacheFormat.check(size: bytes.count) { try FileIO.read(fd, at: $0, count: $1) }
        }
        XCTAssertEqual(
            try fromFile(entry([UInt8](repeating: 0x61, count: 140_000))).get(), String(decoding: key, as: UTF8.self))
        let short = entry([UInt8](repeating: 0x61, count: 300))
        XCTAssertEqual(try fromFile(short).get(), String(decoding: key, as: UTF8.self))
        for seed in 0..<UInt64(5000) {
            var random = Seeded(state: seed)
            let mutated = Self.mutate(short, &random)
            let memory = ChromiumSimpleCacheFormat.check(mutated)
            let file = try fromFile(mutated)
            XCTAssertEqual(try? memory.get(), try? file.get(), "seed \(seed)")
            if case .failure(let x) = memory, case .failure(let y) = file {
                XCTAssertEqual(x.why, y.why, "seed \(seed)")
            }
        }
    }

    /// Chromium's index file (`index-dir/the-real-index`): one made here gives each entry's
    /// last use while the directory is no newer than the time it records, and nothing once
    /// it is, or for version 6; mutated at random, with its CRC-32 left or made right again,
    /// it answers or refuses, and never names more entries than it holds.
    func testChromiumIndexFile() {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let since1601: Int64 = 11_644_473_600 * 1_000_000
        let written = FileTime(seconds: 1_800_000_000, nanoseconds: 123_456_789)
        let uses: [(UInt64, Int64)] = [(0x662d_9e52_debf_ec5d, 1_799_999_000), (0x1, 1_799_999_500), (0xff, 0)]
        func index(version: UInt32 = 9, packed: UInt64 = 4 << 8) -> [UInt8] {
            var payload =
                le(ChromiumIndexFile.magic) + le(version) + le(UInt64(uses.count)) + le(UInt64(4096)) + le(UInt32(0))
            for (hash, seconds) in uses {
                payload += le(hash) + le(seconds == 0 ? Int64(0) : since1601 + seconds * 1_000_000) + le(packed)
            }
            payload += le(since1601 + written.seconds * 1_000_000 + Int64(written.nanoseconds / 1000))
            return framed(payload)
        }
        func framed(_ payload: [UInt8]) -> [UInt8] {
            le(UInt32(payload.count)) + le(CRC32.finish(CRC32.update(CRC32.initial, payload))) + payload
        }
        let loaded = ChromiumIndexFile.parse(index(), directoryModified: written)?.lastUse
        XCTAssertEqual(
            loaded, [0x662d_9e52_debf_ec5d: FileTime(seconds: 1_799_999_000), 0x1: FileTime(seconds: 1_799_999_500)])
        XCTAssertNil(
            ChromiumIndexFile.parse(
                index(), directoryModified: FileTime(seconds: 1_800_000_000, nanoseconds: 123_457_000)))
        XCTAssertNil(ChromiumIndexFile.parse(index(version: 6), directoryModified: written))
        // The hints in the low two bits (`HINT_HIGH_PRIORITY` is 2); a size and hints over 38 bits
        // make Chromium refuse the file (`EntryMetadata::Deserialize`).
        XCTAssertEqual(ChromiumIndexFile.parse(index(), directoryModified: written)?.highPriority, [])
        XCTAssertEqual(
            ChromiumIndexFile.parse(index(packed: 4 << 8 | 3), directoryModified: written)?.highPriority,
            [0x662d_9e52_debf_ec5d, 0x1, 0xff])
        XCTAssertNil(ChromiumIndexFile.parse(index(packed: 1 << 38), directoryModified: written))
        for seed in 0..<UInt64(5000) {
            var random = Seeded(state: seed)
            var mutated = Self.mutate(index(), &random)
            if seed % 2 == 1, mutated.count >= 8 { mutated = framed(Array(mutated[8...])) }
            let parsed = ChromiumIndexFile.parse(mutated, directoryModified: written)
            XCTAssertLessThanOrEqual(parsed?.lastUse.count ?? 0, max(0, (mutated.count - 48) / 24), "seed \(seed)")
        }
    }

    func testImageHeaders() {
        let images = [Images.png, Images.jpeg, Images.gif, Images.webp]
        for image in images { XCTAssertEqual(ImageSignature.verdict(of: image), .whole) }
        for seed in 0..<UInt64(20000) {
            var random = Seeded(state: seed)
            _ = ImageSignature.verdict(of: Self.mutate(images[Int(seed % 4)], &random))
        }
    }

    func testHTTPDatesAndFreshnessHeaders() {
        let values = [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "max-age=3600, s-maxage=99999999999999999999, stale-while-revalidate=\"60\"", "3600, 7200", "*"
        ]
        let names = ["Date", "Expires", "Last-Modified", "Age", "Cache-Control", "Vary", "Pragma"]
        for seed in 0..<UInt64(20000) {
            var random = Seeded(state: seed)
            let value = String(
                decoding: Self.mutate(Array(values[Int(seed) % values.count].utf8), &random), as: UTF8.self)
            _ = HTTPDate.parse(value)
            let headers = names.map { (name: $0, value: value) }
            _ = Freshness.decide(headers: headers, responseTime: 1e9, requestTime: 1e9 - 1)
            _ = Freshness.decide(headers: headers, responseTime: -1e300, requestTime: .nan)
        }
    }

    /// URLCache's `time_stamp` (`YYYY-MM-DD HH:MM:SS`), as an app's Cache.db holds it: an hour
    /// of sixteen digits overflowed the sum of seconds and stopped `ls` on the folder.
    func testURLCacheTimestamps() {
        XCTAssertEqual(AppleURLCacheFormat.timestamp("1994-11-06 08:49:37"), 784_111_777)
        XCTAssertNil(AppleURLCacheFormat.timestamp("2020-01-01 9999999999999999:00:00"))
        XCTAssertNil(AppleURLCacheFormat.timestamp("2020-01-01 24:00:00"))
        for seed in 0..<UInt64(20000) {
            var random = Seeded(state: seed)
            _ = AppleURLCacheFormat.timestamp(
                String(decoding: Self.mutate(Array("2020-02-29 23:59:60".utf8), &random), as: UTF8.self))
        }
    }

    /// Text in a number column is read as SQLite reads it: the number it starts with, else 0.
    func testTextReadAsANumberAsSQLiteReadsIt() {
        let cases: [(String, Double)] = [
            ("  12.5e1x", 125), ("-3", -3), (".5", 0.5), ("1e", 1), ("soon", 0), ("", 0), ("+", 0), ("1e999", .infinity)
        ]
        for (text, expected) in cases { XCTAssertEqual(Double.coerce(.string(text)), expected, text) }
        XCTAssertEqual(Int64.coerce(.string(String(repeating: "9", count: 100_000))), .max)
        XCTAssertEqual(Int64.coerce(.double(-1e300)), .min)
    }
}
