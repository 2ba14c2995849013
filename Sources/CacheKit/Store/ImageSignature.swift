#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Recognises PNG, JPEG, GIF and WebP by their signature and tells whether the file's
/// structure is cut short (a writer that did not write atomically was interrupted).
public enum ImageSignature {
    public enum Kind: String, Sendable { case png, jpeg, gif, webp }

    /// The image kind the first bytes announce, if any.
    public static func kind(ofPrefix head: [UInt8]) -> Kind? {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Why the file is a truncated image, or nil when it is complete or not an image.
    public static func truncation(of path: RawPath, size: Int64) -> String? {
        guard size > 0, case .success(let fd) = Sys.openWithoutAtime(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) else { return nil }
        let file = FileDescriptor(adopting: fd)
        return withExtendedLifetime(file) { truncation(file.raw, size: size) }
    }

    /// `truncation(of:size:)` of the file `relative` below an anchored cache root (read
    /// through its descriptor, with its access-time rule).
    public static func truncation(in anchor: AnchoredDirectory, _ relative: [UInt8], size: Int64) -> String? {
        guard size > 0, case .success(let file) = anchor.open(relative, O_RDONLY | O_NONBLOCK) else { return nil }
        return truncation(file.raw, size: size)
    }

    /// `truncation` of an open file of `size` bytes.
    static func truncation(_ fd: Int32, size: Int64) -> String? {
        let head = readAt(fd, offset: 0, count: 16)
        guard let kind = kind(ofPrefix: head) else { return nil }
        let tailLength = Int(min(size, 32))
        var tail = readAt(fd, offset: size - Int64(tailLength), count: tailLength)
        switch kind {
        case .png:
            let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return tail.count >= 8 && Array(tail.suffix(8)) == iend ? nil : "PNG without its IEND chunk (truncated)"
        case .jpeg:
            while tail.last == 0 { tail.removeLast() } // some encoders pad with zeros
            return tail.count >= 2 && Array(tail.suffix(2)) == [0xFF, 0xD9] ? nil : "JPEG without its end-of-image marker (truncated)"
        case .gif:
            return tail.last == 0x3B ? nil : "GIF without its trailer (truncated)"
        case .webp:
            guard head.count >= 8 else { return "WebP header cut short" }
            let declared = Int64(head[4]) | Int64(head[5]) << 8 | Int64(head[6]) << 16 | Int64(head[7]) << 24
            return declared + 8 <= size ? nil : "WebP shorter than its RIFF header says (\(size) of \(declared + 8) bytes)"
        }
    }

    private static func readAt(_ fd: Int32, offset: Int64, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        guard case .success(let n) = buffer.withUnsafeMutableBytes({ Sys.pread(fd, $0.baseAddress!, count, at: offset) }), n > 0 else { return [] }
        return Array(buffer[0..<n])
    }
}
