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
        switch algorithm {
        case "sha512": return hex(SHA512.hash(data: bytes))
        case "sha384": return hex(SHA384.hash(data: bytes))
        case "sha256": return hex(SHA256.hash(data: bytes))
        case "sha1": return hex(Insecure.SHA1.hash(data: bytes))
        default: return nil
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
