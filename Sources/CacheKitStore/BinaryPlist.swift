/// A value of a binary property list (`bplist00`), and NSKeyedArchiver archives built on it.
///
/// Apple's URLCache stores each response as a plain binary plist, and swift-corelibs-
/// foundation's URLCache as an NSKeyedArchiver archive: both are read here, by a parser that
/// bounds every offset, count and nesting depth, so no input can trap the process (a damaged
/// file is `nil`, reported as such).
public indirect enum PlistValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 (CFAbsoluteTime).
    case date(Double)
    case data([UInt8])
    case string(String)
    /// An NSKeyedArchiver object reference (`CF$UID`).
    case uid(Int)
    case array([PlistValue])
    case dict([String: PlistValue])

    /// The value under `key` in a dictionary; nil otherwise.
    public subscript(key: String) -> PlistValue? {
        if case .dict(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` in an array; nil otherwise.
    public subscript(index: Int) -> PlistValue? {
        if case .array(let items) = self, index >= 0, index < items.count { return items[index] }
        return nil
    }

    /// The string, when this is one.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    /// The integer, when this is one.
    public var int: Int64? {
        if case .int(let n) = self { return n }
        return nil
    }
    /// The number (a real, or an integer as a Double), when this is one.
    public var double: Double? {
        switch self {
        case .real(let d), .date(let d): return d
        case .int(let n): return Double(n)
        default: return nil
        }
    }
    /// The bytes, when this is data.
    public var data: [UInt8]? {
        if case .data(let d) = self { return d }
        return nil
    }
    /// The elements, when this is an array.
    public var array: [PlistValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
    /// The entries, when this is a dictionary.
    public var dictionary: [String: PlistValue]? {
        if case .dict(let d) = self { return d }
        return nil
    }
}

/// The binary property list parser (format: CFBinaryPList.c's header, objects, offset table
/// and 32-byte trailer).
public enum BinaryPlist {
    /// The top object, or nil when `bytes` is not a well-formed binary plist.
    public static func parse(_ bytes: [UInt8]) -> PlistValue? {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize),
            let count = Self.uint(bytes, trailer + 8, 8), let top = Self.uint(bytes, trailer + 16, 8),
            let tableOffset = Self.uint(bytes, trailer + 24, 8),
            count > 0, count < 10_000_000, top < count, tableOffset >= 8,
            tableOffset + count * offsetSize <= trailer
        else { return nil }
        var parser = Parser(
            bytes: bytes, offsetSize: offsetSize, refSize: refSize, count: count, tableOffset: tableOffset,
            limit: trailer)
        return parser.object(top, depth: 0)
    }

    fileprivate static func uint(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int? {
        guard at >= 0, size >= 1, size <= 8, at + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
        return value <= UInt64(Int.max / 2) ? Int(value) : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        let offsetSize: Int
        let refSize: Int
        let count: Int
        let tableOffset: Int
        let limit: Int
        /// Objects on the current path: a reference back into it is a cycle.
        var visiting = Set<Int>()
        /// At most this many objects decoded in all (a shared subtree counts each time).
        var budget = 1_000_000

        mutating func object(_ index: Int, depth: Int) -> PlistValue? {
            guard index >= 0, index < count, depth < 64, budget > 0, !visiting.contains(index),
                let offset = BinaryPlist.uint(bytes, tableOffset + index * offsetSize, offsetSize), offset < limit
            else { return nil }
            budget -= 1
            visiting.insert(index)
            defer { visiting.remove(index) }
            let marker = bytes[offset]
            let high = marker >> 4
            let low = Int(marker & 0x0F)
            switch high {
            case 0x0:
                switch low {
                case 0x0: return .null
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: return nil
                }
            case 0x1:
                let size = 1 << low
                guard size <= 8, let raw = BinaryPlist.uint(bytes, offset + 1, size) else {
                    // 8-byte integers may be negative: read them as signed.
                    guard size == 8, offset + 9 <= limit else { return nil }
                    var value: UInt64 = 0
                    for i in 1...8 { value = value << 8 | UInt64(bytes[offset + i]) }
                    return .int(Int64(bitPattern: value))
                }
                return .int(Int64(raw))
            case 0x2:
                guard low == 2 || low == 3, offset + 1 + (1 << low) <= limit else { return nil }
                var value: UInt64 = 0
                for i in 0..<(1 << low) { value = value << 8 | UInt64(bytes[offset + 1 + i]) }
                return .real(low == 2 ? Double(Float(bitPattern: UInt32(value))) : Double(bitPattern: value))
            case 0x3:
                guard low == 3, offset + 9 <= limit else { return nil }
                var value: UInt64 = 0
                for i in 1...8 { value = value << 8 | UInt64(bytes[offset + i]) }
                return .date(Double(bitPattern: value))
            case 0x4, 0x5, 0x6, 0xA, 0xD:
                guard let (length, start) = lengthAndStart(offset, low) else { return nil }
                return sized(high, length: length, start: start, depth: depth)
            case 0x8:
                guard let value = BinaryPlist.uint(bytes, offset + 1, low + 1) else { return nil }
                return .uid(value)
            default:
                return nil
            }
        }

        /// An object with a length: data (0x4), ASCII (0x5) or UTF-16 (0x6) text, an array (0xA)
        /// or a dictionary (0xD) of `length` items from `start`.
        mutating func sized(_ high: UInt8, length: Int, start: Int, depth: Int) -> PlistValue? {
            switch high {
            case 0x4:
                guard start + length <= limit else { return nil }
                return .data(Array(bytes[start..<start + length]))
            case 0x5:
                guard start + length <= limit else { return nil }
                return .string(String(decoding: bytes[start..<start + length], as: Unicode.ASCII.self))
            case 0x6:
                guard length <= (limit - start) / 2 else { return nil }
                let units = (0..<length).map {
                    UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1])
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0xA:
                guard length <= (limit - start) / refSize else { return nil }
                var items: [PlistValue] = []
                for i in 0..<length {
                    guard let ref = BinaryPlist.uint(bytes, start + i * refSize, refSize),
                        let item = object(ref, depth: depth + 1)
                    else { return nil }
                    items.append(item)
                }
                return .array(items)
            default:
                guard length <= (limit - start) / (2 * refSize) else { return nil }
                var members: [String: PlistValue] = [:]
                for i in 0..<length {
                    guard let keyRef = BinaryPlist.uint(bytes, start + i * refSize, refSize),
                        let valueRef = BinaryPlist.uint(bytes, start + (length + i) * refSize, refSize),
                        case .string(let key)? = object(keyRef, depth: depth + 1),
                        let value = object(valueRef, depth: depth + 1)
                    else { return nil }
                    members[key] = value
                }
                return .dict(members)
            }
        }

        /// A count in the marker's low nibble, or (0xF) in the integer object after it.
        func lengthAndStart(_ offset: Int, _ low: Int) -> (Int, Int)? {
            guard low == 0xF else { return (low, offset + 1) }
            guard offset + 2 <= limit, bytes[offset + 1] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            guard size <= 8, let length = BinaryPlist.uint(bytes, offset + 2, size), length < limit else { return nil }
            return (length, offset + 2 + size)
        }
    }
}
