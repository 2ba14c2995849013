import GRDB

/// What SQLite's own `sqlite3_column_*` accessors give for a value of another type: a REAL
/// out of an integer's range saturates, TEXT is read for the number it starts with (else 0), a
/// BLOB where text belongs is read as UTF-8 (each bad byte U+FFFD). GRDB's subscripts stop the
/// process (`try!` inside) on such a value in a copied row, so index rows are read through
/// these: a command meets an odd row as odd values, never as a stop.
protocol SQLiteCoercible {
    static func coerce(_ value: DatabaseValue.Storage) -> Self?
}

extension Int64: SQLiteCoercible {
    static func coerce(_ value: DatabaseValue.Storage) -> Int64? {
        switch value {
        case .null: return nil
        case .int64(let v): return v
        case .double(let d): return Int64(saturating: d)
        case .string(let s): return Int64(s) ?? Double.coerce(.string(s)).map { Int64(saturating: $0) } ?? 0
        case .blob: return 0
        }
    }
}

extension Int: SQLiteCoercible {
    static func coerce(_ value: DatabaseValue.Storage) -> Int? {
        Int64.coerce(value).map { Int(truncatingIfNeeded: $0) }
    }
}

extension Double: SQLiteCoercible {
    static func coerce(_ value: DatabaseValue.Storage) -> Double? {
        switch value {
        case .null: return nil
        case .int64(let v): return Double(v)
        case .double(let d): return d
        case .string(let s): return leadingNumber(Array(s.utf8))
        case .blob: return 0
        }
    }
}

extension Double {
    /// The decimal number `b` starts with (after spaces and tabs), as SQLite's `sqlite3AtoF`
    /// reads one: sign, digits, fraction, exponent; 0 when there is none. One pass, however
    /// long the text.
    fileprivate static func leadingNumber(_ b: [UInt8]) -> Double {
        var i = 0
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        let start = i
        func digits() -> Int {
            let from = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - from
        }
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        var mantissa = digits()
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return 0 }
        var end = i
        if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            if digits() > 0 { end = i }
        }
        return Double(String(decoding: b[start..<end], as: UTF8.self)) ?? 0
    }
}

extension Bool: SQLiteCoercible {
    static func coerce(_ value: DatabaseValue.Storage) -> Bool? { Double.coerce(value).map { $0 != 0 } }
}

extension String: SQLiteCoercible {
    static func coerce(_ value: DatabaseValue.Storage) -> String? {
        switch value {
        case .null: return nil
        case .int64(let v): return String(v)
        case .double(let d): return String(d)
        case .string(let s): return s
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }
}

extension Row {
    /// The value at `index` as SQLite would give it as `T` (see `SQLiteCoercible`); NULL throws.
    func value<T: SQLiteCoercible>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard let value = T.coerce((self[index] as DatabaseValue).storage) else {
            let names = Array(columnNames)
            throw UnexpectedColumnValue(column: index < names.count ? names[index] : "#\(index)")
        }
        return value
    }

    /// The bytes of a BLOB or TEXT value at `index` (TEXT as UTF-8); nil for NULL and numbers.
    func bytes(at index: Int) -> [UInt8]? {
        switch (self[index] as DatabaseValue).storage {
        case .blob(let data): return Array(data)
        case .string(let text): return Array(text.utf8)
        default: return nil
        }
    }

    /// As `value(at:)`, with NULL read as nil.
    func optionalValue<T: SQLiteCoercible>(at index: Int, as type: T.Type = T.self) -> T? {
        T.coerce((self[index] as DatabaseValue).storage)
    }
}
