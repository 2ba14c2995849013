import CacheKitSystem
import URLStandard

/// `srcset` parsing by the HTML Standard's algorithm ("parse a srcset attribute"), keeping
/// where each candidate's URL sits so it can be replaced in place.
public enum Srcset {
    /// One image candidate of a `srcset`.
    public struct Candidate: Equatable, Sendable {
        /// The URL's range in the parsed string (in UTF-8 offsets of the input).
        public var urlRange: Range<Int>
        /// The candidate's URL, as written.
        public var url: String
        /// Its descriptors (`2x`, `300w`), as written.
        public var descriptors: [String]
        /// False when the descriptors are invalid: dropped from consideration, left in place.
        public var isValid: Bool
    }

    /// The candidates of `text` by the HTML Standard's srcset parsing rules (invalid ones marked, not dropped).
    public static func parse(_ text: String) -> [Candidate] {
        text.withBytes { b in
            var out: [Candidate] = []
            forEachCandidate(b) { url, descriptorRanges in
                let descriptors = descriptorRanges.map { String(decoding: b[$0], as: UTF8.self) }
                out.append(
                    Candidate(
                        urlRange: url, url: String(decoding: b[url], as: UTF8.self), descriptors: descriptors,
                        isValid: validDescriptors(descriptors)))
            }
            return out
        }
    }

    /// The URL range of each valid candidate of the srcset in `b`, in order, without making the
    /// candidates (their descriptors' strings and arrays, for each candidate of a page's
    /// srcsets); returns how many candidates there are, valid or not.
    @discardableResult
    static func forEachValidURL(_ b: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) -> Int {
        var count = 0
        forEachCandidate(b) { url, descriptors in
            count += 1
            var check = DescriptorCheck()
            for d in descriptors { check.add(UnsafeBufferPointer(rebasing: b[d])) }
            if check.isValid { body(url) }
        }
        return count
    }

    /// The HTML Standard's tokenization of a srcset: each candidate's URL range and its
    /// descriptors' ranges, in order (the ranges in one array, reused from one candidate to the
    /// next).
    private static func forEachCandidate(
        _ b: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, _ descriptors: [Range<Int>]) -> Void
    ) {
        var i = 0
        var descriptors: [Range<Int>] = []
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
        while i < b.count {
            // Skip whitespace and commas.
            while i < b.count, isSpace(b[i]) || b[i] == UInt8(ascii: ",") { i += 1 }
            guard i < b.count else { break }
            let start = i
            while i < b.count, !isSpace(b[i]) { i += 1 }
            var end = i
            descriptors.removeAll(keepingCapacity: true)
            var trailingCommas = false
            // A URL ending in commas: they end the candidate, with no descriptors.
            while end > start, b[end - 1] == UInt8(ascii: ",") {
                end -= 1
                trailingCommas = true
            }
            if !trailingCommas {
                // Descriptors run to the next comma outside parentheses; each is a run of
                // bytes up to whitespace outside parentheses.
                var current: Int? = nil  // where the descriptor being read began
                var inParens = false
                while i < b.count {
                    let c = b[i]
                    if inParens {
                        if c == UInt8(ascii: ")") { inParens = false }
                    } else if c == UInt8(ascii: ",") {
                        break
                    } else if isSpace(c) {
                        if let from = current {
                            descriptors.append(from..<i)
                            current = nil
                        }
                        i += 1
                        continue
                    } else if c == UInt8(ascii: "(") {
                        inParens = true
                    }
                    if current == nil { current = i }
                    i += 1
                }
                if let from = current { descriptors.append(from..<i) }
                if i < b.count { i += 1 }  // the comma
            }
            guard end > start else { continue }
            body(start..<end, descriptors)
        }
    }

    /// `Nw` (integer > 0), `Nx` (number ≥ 0), `Nh` (integer > 0, only with `w`); at most one of each.
    static func validDescriptors(_ descriptors: [String]) -> Bool {
        var check = DescriptorCheck()
        for d in descriptors { d.withBytes { check.add($0) } }
        return check.isValid
    }

    /// A candidate's descriptors checked one at a time, as `validDescriptors` reads them.
    private struct DescriptorCheck {
        private var width = false
        private var density = false
        private var height = false
        private var invalid = false

        var isValid: Bool { !invalid && (!height || width) }

        mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            if !invalid && !accepts(bytes) { invalid = true }
        }

        /// Whether one more descriptor keeps the candidate valid (noted when it does).
        private mutating func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let unit = bytes.last else { return false }
            let number = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 1)])
            switch unit {
            case UInt8(ascii: "w"):
                guard !width, !density, isPositiveInteger(number) else { return false }
                width = true
            case UInt8(ascii: "x"):
                guard !width, !density, !height, isValidFloatingPointNumber(number),
                    let v = Double(String(decoding: number, as: UTF8.self)), v >= 0, v.isFinite
                else { return false }
                density = true
            case UInt8(ascii: "h"):
                guard !height, !density, isPositiveInteger(number) else { return false }
                height = true
            default:
                return false
            }
            return true
        }
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// The HTML Standard's "valid floating-point number" (§2.3.4.3): an optional `-`; digits,
    /// or `.` and digits, or both; optionally `e`/`E`, an optional sign and digits. So `1.`,
    /// `+1`, `0x1` and `1e` are not (Swift's `Double()` reads `1.` and `0x1`).
    static func isValidFloatingPointNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let integer = digits()
        var fraction = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fraction = digits()
            guard fraction > 0 else { return false }
        }
        guard integer > 0 || fraction > 0 else { return false }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == bytes.count
    }

    /// ASCII digits only, greater than zero, and within `Int` (as `Int(_:)` would read it).
    private static func isPositiveInteger(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return false }
        var value = 0
        for c in digits {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(c - 0x30))
            if o1 || o2 { return false }
            value = sum
        }
        return value > 0
    }
}
