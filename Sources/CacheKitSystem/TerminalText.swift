/// Text made safe for a terminal: what a file name, URL or message may carry that would
/// drive it (escape sequences, carriage returns, C1 controls) or garble it (bytes that are
/// not UTF-8) is shown as `\xNN`.
public enum TerminalText {
    /// `bytes` with control characters (C0, DEL, and C1 as UTF-8), and bytes that are not
    /// UTF-8, written as `\xNN`; `quote`, when given, written as `'\''` (shell style).
    public static func escape(_ bytes: [UInt8], quote: UInt8?) -> String {
        // Most names need nothing: printable ASCII without the quote is its own text.
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != quote }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F {
                    out += "\\x" + hex(byte)
                } else if let quote, byte == quote {
                    out += "'\\''"
                } else {
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if index + length <= bytes.count,
                let text = String(validating: bytes[index..<index + length], as: UTF8.self)
            {
                // C1 controls (U+0080–U+009F): CSI and friends on some terminals.
                if let scalar = text.unicodeScalars.first, scalar.value >= 0x80 && scalar.value <= 0x9F {
                    for b in bytes[index..<index + length] { out += "\\x" + hex(b) }
                } else {
                    out += text
                }
                index += length
            } else {
                out += "\\x" + hex(byte)
                index += 1
            }
        }
        return out
    }

    /// A string for a line of text output, escaped as `escape` does.
    public static func escape(_ text: String) -> String {
        // Most text needs nothing: check before copying.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return escape(Array(text.utf8), quote: nil)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
