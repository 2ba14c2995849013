import Crypto

/// Lower-case hex digests, the way the cache libraries name their files.
public enum Digest {
    /// MD5 of the UTF-8 text, lowercase hex (file names other libraries use).
    public static func md5(_ text: String) -> String { hex(Insecure.MD5.hash(data: Array(text.utf8))) }
    /// SHA-1 of the UTF-8 text, lowercase hex.
    public static func sha1(_ text: String) -> String { hex(Insecure.SHA1.hash(data: Array(text.utf8))) }
    /// SHA-256 of the UTF-8 text, lowercase hex.
    public static func sha256(_ text: String) -> String { hex(SHA256.hash(data: Array(text.utf8))) }
    /// SHA-256 of the bytes, lowercase hex.
    public static func sha256(bytes: [UInt8]) -> String { hex(SHA256.hash(data: bytes)) }

    /// The digest of `bytes` by a Subresource Integrity algorithm name (`sha512`, `sha384`,
    /// `sha256`, `sha1`); nil for another.
    static func sri(_ algorithm: String, _ bytes: [UInt8]) -> String? {
        (try? sri(algorithm) { $0(bytes) }) ?? nil
    }

    /// As `sri(_:_:)`, of the bytes `feed` hands its sink in order (a file a chunk at a time).
    static func sri(_ algorithm: String, feeding feed: (_ sink: ([UInt8]) -> Void) throws -> Void) throws -> String? {
        func digest<H: HashFunction>(_: H.Type) throws -> String {
            var hasher = H()
            try feed { hasher.update(data: $0) }
            return hex(hasher.finalize())
        }
        switch algorithm {
        case "sha512": return try digest(SHA512.self)
        case "sha384": return try digest(SHA384.self)
        case "sha256": return try digest(SHA256.self)
        case "sha1": return try digest(Insecure.SHA1.self)
        default: return nil
        }
    }

    /// The `sri` digest of the regular file `relative` below `anchor` (never through a
    /// symlink), read 64 KiB at a time; nil for an algorithm not named there; a failure when
    /// the file cannot be read.
    static func sri(_ algorithm: String, ofFile relative: [UInt8], in anchor: AnchoredDirectory) -> Result<
        String?, Errno
    > {
        do {
            return .success(try sri(algorithm) { try FileIO.forEachChunk(of: relative, in: anchor, $0).get() })
        } catch let error as Errno {
            return .failure(error)
        } catch {
            return .failure(.invalid)
        }
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
