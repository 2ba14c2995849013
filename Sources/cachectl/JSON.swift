import CacheKit

/// A JSON value built by the subcommands and written with stable key order.
indirect enum JSON {
    case object([(String, JSON)])
    case array([JSON])
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null

    static func int(_ value: Int) -> JSON { .int(Int64(value)) }
    static func time(_ value: FileTime?) -> JSON { value.map { .string(DateText.iso8601($0)) } ?? .null }

    /// Serialized with two-space indentation and a final newline.
    var text: String {
        var out = ""
        write(into: &out, indent: 0)
        return out + "\n"
    }

    private func write(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += pad + JSON.quote(key) + ": "
                value.write(into: &out, indent: indent + 1)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "}"
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad
                item.write(into: &out, indent: indent + 1)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "]"
        case .string(let s): out += JSON.quote(s)
        case .int(let n): out += String(n)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
