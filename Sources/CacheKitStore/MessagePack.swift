/// A bounded MessagePack reader (the msgpack spec's formats), enough for the metadata pip's
/// CacheControl writes (`cc=4,` + a map of maps, strings, byte strings and integers). Any
/// malformed or truncated input gives nil, never a trap; nesting is limited. It reads bytes
/// in memory, or a file a window at a time, stepping over long strings without reading them
/// (pip's legacy entries hold the whole response body, a wheel of gigabytes, in the map).
enum MessagePack {
    indirect enum Value: Equatable {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
        case bytes([UInt8])
        case array([Value])
        case map([(Value, Value)])
        /// A byte or text string of this many bytes, stepped over unread (`decode(file:)`).
        case skipped(Int)

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case (.bool(let x), .bool(let y)): return x == y
            case (.int(let x), .int(let y)): return x == y
            case (.double(let x), .double(let y)): return x == y
            case (.string(let x), .string(let y)): return x == y
            case (.bytes(let x), .bytes(let y)): return x == y
            case (.array(let x), .array(let y)): return x == y
            case (.map(let x), .map(let y)):
                return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            case (.skipped(let x), .skipped(let y)): return x == y
            default: return false
            }
        }

        subscript(key: String) -> Value? {
            guard case .map(let pairs) = self else { return nil }
            return pairs.first { if case .string(key) = $0.0 { return true } else { return false } }?.1
        }

        var string: String? {
            switch self {
            case .string(let s): return s
            case .bytes(let b): return String(decoding: b, as: UTF8.self)
            default: return nil
            }
        }
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> Value? {
        var reader = Reader(bytes: bytes)
        return reader.value(depth: 0)
    }

    /// The value in an input of `size` bytes (a file) from `offset` on, read through `read` a
    /// window of `window` bytes at a time: a byte or text string longer than `longest` is
    /// stepped over (`.skipped`), so memory stays within a few windows whatever the input
    /// holds. Nil as for `decode`; throws what `read` throws.
    static func decode(
        size: Int, from offset: Int, longest: Int = 1 << 20, window: Int = 1 << 16,
        read: (_ at: Int, _ count: Int) throws -> [UInt8]
    ) throws -> Value? {
        var failure: (any Error)?
        let value = withoutActuallyEscaping(read) { read in
            var reader = Reader(
                end: size, at: offset, longest: longest, window: window,
                load: { offset, count in
                    do {
                        return try read(offset, count)[...]
                    } catch {
                        failure = error
                        return []
                    }
                })
            return reader.value(depth: 0)
        }
        if let failure { throw failure }
        return value
    }

    private struct Reader {
        /// The input's bytes at hand: those from offset `windowStart` on.
        var bytes: ArraySlice<UInt8>
        var windowStart: Int
        /// Where reading is, and where the input ends (offsets in the input).
        var at: Int
        let end: Int
        /// Strings longer than this are stepped over (only for a file: in memory, never).
        let longest: Int
        /// How much a load reads at least, and how: the input's bytes from an offset (fewer at
        /// its end or on a failure); nil for an input wholly in memory.
        let window: Int
        let load: ((Int, Int) -> ArraySlice<UInt8>)?

        init(bytes: ArraySlice<UInt8>) {
            (self.bytes, windowStart, at, end) = (bytes, bytes.startIndex, bytes.startIndex, bytes.endIndex)
            (longest, window, load) = (Int.max, 0, nil)
        }

        init(end: Int, at: Int, longest: Int, window: Int, load: @escaping (Int, Int) -> ArraySlice<UInt8>) {
            (bytes, windowStart, self.at, self.end) = ([], at, at, end)
            (self.longest, self.window, self.load) = (longest, max(1, window), load)
        }

        mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard n >= 0, at >= 0, end - at >= n else { return nil }
            var from = at - windowStart
            if from < 0 || bytes.count - from < n {
                // Past what is at hand (a file): the window moves to here.
                guard let load else { return nil }
                bytes = load(at, min(max(n, window), end - at))
                windowStart = at
                from = 0
                guard bytes.count >= n else { return nil }
            }
            defer { at += n }
            let first = bytes.startIndex + from
            return bytes[first..<first + n]
        }

        /// A string of `n` bytes: stepped over when longer than `longest`, else read by `make`.
        mutating func string(_ n: Int, _ make: (ArraySlice<UInt8>) -> Value) -> Value? {
            guard n > longest else { return take(n).map(make) }
            guard n >= 0, end - at >= n else { return nil }
            at += n
            return .skipped(n)
        }

        mutating func uint(_ n: Int) -> UInt64? {
            guard let raw = take(n) else { return nil }
            return raw.reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func value(depth: Int) -> Value? {
            guard depth < 64, let tag = take(1)?.first else { return nil }
            switch tag {
            case 0x00...0x7F: return .int(Int64(tag))
            case 0xE0...0xFF: return .int(Int64(Int8(bitPattern: tag)))
            case 0x80...0x8F: return map(Int(tag & 0x0F), depth)
            case 0x90...0x9F: return array(Int(tag & 0x0F), depth)
            case 0xA0...0xBF: return str(Int(tag & 0x1F))
            case 0xC0: return .null
            case 0xC2: return .bool(false)
            case 0xC3: return .bool(true)
            case 0xC4, 0xC5, 0xC6:
                return uint(1 << Int(tag - 0xC4)).flatMap { string(Int(clamping: $0)) { .bytes(Array($0)) } }
            case 0xCA: return uint(4).map { .double(Double(Float(bitPattern: UInt32($0)))) }
            case 0xCB: return uint(8).map { .double(Double(bitPattern: $0)) }
            case 0xCC, 0xCD, 0xCE: return uint(1 << Int(tag - 0xCC)).map { .int(Int64($0)) }
            case 0xCF: return uint(8).map { .int(Int64(bitPattern: $0)) }
            case 0xD0: return uint(1).map { .int(Int64(Int8(truncatingIfNeeded: $0))) }
            case 0xD1: return uint(2).map { .int(Int64(Int16(truncatingIfNeeded: $0))) }
            case 0xD2: return uint(4).map { .int(Int64(Int32(truncatingIfNeeded: $0))) }
            case 0xD3: return uint(8).map { .int(Int64(bitPattern: $0)) }
            case 0xD9, 0xDA, 0xDB: return uint(1 << Int(tag - 0xD9)).flatMap { str(Int(clamping: $0)) }
            case 0xDC, 0xDD: return uint(tag == 0xDC ? 2 : 4).flatMap { array(Int(clamping: $0), depth) }
            case 0xDE, 0xDF: return uint(tag == 0xDE ? 2 : 4).flatMap { map(Int(clamping: $0), depth) }
            default: return nil  // ext types: not in CacheControl's data
            }
        }

        mutating func str(_ n: Int) -> Value? {
            string(n) { .string(String(decoding: $0, as: UTF8.self)) }
        }

        mutating func array(_ n: Int, _ depth: Int) -> Value? {
            guard n <= end - at else { return nil }
            var out: [Value] = []
            for _ in 0..<n {
                guard let v = value(depth: depth + 1) else { return nil }
                out.append(v)
            }
            return .array(out)
        }

        mutating func map(_ n: Int, _ depth: Int) -> Value? {
            guard n <= end - at else { return nil }
            var out: [(Value, Value)] = []
            for _ in 0..<n {
                guard let k = value(depth: depth + 1), let v = value(depth: depth + 1) else { return nil }
                out.append((k, v))
            }
            return .map(out)
        }
    }
}
