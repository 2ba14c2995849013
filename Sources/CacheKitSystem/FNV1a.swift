/// FNV-1a, 64 bits: a quick hash of bytes for names and tables (not for anything an attacker
/// could aim at). (A public type so that `hash`'s inlinable body is serialized, and its callers
/// in other modules get a specialized loop rather than the generic one: see `ByteSet`.)
public enum FNV1a {
    @inlinable
    package static func hash<Bytes: Sequence>(_ bytes: Bytes, into start: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64
    where Bytes.Element == UInt8 {
        var hash = start
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
