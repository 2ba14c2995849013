import Crypto

/// SHA-256 over a stream of chunks.
struct StreamingSHA256 {
    private var hasher = SHA256()
    mutating func update(_ chunk: UnsafeRawBufferPointer) { hasher.update(bufferPointer: chunk) }
    func finalize() -> String { Digest.hex(hasher.finalize()) }
}
