import CacheKit

/// Independent oracles for fixture names: the coreutils digest tools.
public enum Oracle {
    public static func digest(_ tool: String, _ text: String) -> String {
        let result = Run.bytes([Array(tool.utf8)], stdin: Array(text.utf8))
        return String(result.out.prefix(while: { $0 != " " }))
    }
    public static func md5(_ text: String) -> String { digest("md5sum", text) }
    public static func sha1(_ text: String) -> String { digest("sha1sum", text) }
    public static func sha256(_ text: String) -> String { digest("sha256sum", text) }

    /// Runs a Python snippet (used to write plists with plistlib and to poke SQLite).
    @discardableResult
    public static func python(_ code: String, _ args: [String] = []) -> RunResult {
        Run.command(["python3", "-c", code] + args)
    }
}

/// Image bytes with real structure, complete or cut short.
public enum Images {
    public static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0] + [0x1F, 0x15, 0xC4, 0x89]
        + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    public static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x11, count: 200) + [0xFF, 0xD9]
    public static let gif: [UInt8] = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20) + [0x3B]
    public static var webp: [UInt8] {
        let payload = Array("WEBPVP8 ".utf8) + [UInt8](repeating: 1, count: 30)
        let size = UInt32(payload.count)
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)] + payload
    }
    public static func truncated(_ image: [UInt8]) -> [UInt8] { Array(image.prefix(image.count - 5)) }
}

/// Plain reads and removals for assertions (independent of the store's own I/O).
public enum FileIOProbe {
    public static func read(_ path: RawPath) throws -> [UInt8] {
        let r = Run.bytes([Array("cat".utf8), path.bytes])
        if r.status != 0 { throw StoreError.cannotRead(path, r.err) }
        return r.stdout
    }

    public static func remove(_ path: RawPath) -> Bool { Run.bytes([Array("rm".utf8), path.bytes]).status == 0 }
}

/// The independent "nothing else changed" check for localize: the input with each rewritten
/// reference's original bytes replaced by its local path, and nothing more.
public enum Splice {
    public static func expected(_ input: [UInt8], _ references: [ImageReference]) -> [UInt8] {
        var expected: [UInt8] = []
        var cursor = 0
        for ref in references where ref.outcome == .rewritten {
            expected += input[cursor..<ref.offset]
            expected += Array(ref.localPath!.utf8)
            cursor = ref.offset + ref.length
        }
        expected += input[cursor...]
        return expected
    }
}
