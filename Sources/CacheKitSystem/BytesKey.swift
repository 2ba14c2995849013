#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes as a dictionary key, hashed in one call (`ArraySlice<UInt8>` hashes byte by byte).
package struct BytesKey: Hashable {
    package let bytes: ArraySlice<UInt8>

    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The length and the last 16 bytes: keys here are paths that differ at their ends
    /// (a store's `objects/xx` directories), and equality compares them whole anyway.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[max(0, $0.count - 16)...])) }
    }

    package static func == (a: BytesKey, b: BytesKey) -> Bool {
        guard a.bytes.count == b.bytes.count else { return false }
        guard !a.bytes.isEmpty else { return true }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}
