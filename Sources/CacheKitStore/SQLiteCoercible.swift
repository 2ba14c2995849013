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
        case .string(let s):
            // The longest prefix that reads as a decimal number, as SQLite's `sqlite3AtoF`.
            var text = Substring(s.drop { $0 == " " || $0 == "\t" })
            while !text.isEmpty {
                if let d = Double(text), d.isFinite, text.allSatisfy({ "0123456789+-.eE".contains($0) }) { return d }
                text = text.dropLast()
            }
            return 0
        case .blob: return 0
        }
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

    /// As `value(at:)`, with NULL read as nil.
    func optionalValue<T: SQLiteCoercible>(at index: Int, as type: T.Type = T.self) -> T? {
        T.coerce((self[index] as DatabaseValue).storage)
    }
}
