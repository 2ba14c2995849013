import CLibXML2
import CacheKitSystem

/// A large page parsed by two libxml2 parsers at once, with exactly the elements one parser
/// reports.
///
/// The second parser starts at a start tag past the middle, with nothing open; the first
/// parses from the beginning. What libxml2 2.9's HTML parser reports after a start tag
/// depends only on the input from there and three pieces of its state (HTMLparser.c at
/// v2.9.14): the open elements, `nameTab` (autoclosing, implied elements, `<script>` and
/// `<style>` read as text: htmlAutoClose 1579, htmlCheckImplied 1663, htmlParseContentInternal
/// 4710); `depth`, the misplaced `<html>`, `<head>` and `<body>` tags it ignored, whose end
/// tags it then ignores too (htmlParseStartTag 3987-4011, htmlParseEndTag 4171); and `html`,
/// whether a head or a body was opened (htmlnamePush 169-172, htmlCheckImplied 1686, 1700).
/// The second parser records that state at each start tag it reports with attributes: always
/// the end of htmlParseStartTag, never an implied element. Once it has finished (the first
/// waits for it at the split), the first, past the split, compares its own state at each such
/// tag with the record for the same tag (by position). Where the two are equal, the rest of
/// the parse is the same in both: the first stops there, and the page's elements are the
/// first parser's up to that tag and the second's from it.
///
/// If they never meet (the split fell inside a script or a comment, or the page's open
/// elements never come back to what the second parser has), the first parser goes on to the
/// end alone and the second's work is dropped: the result is one parser's either way.
extension LibXML2 {
    /// Pages from this size are parsed in halves: below it, a second thread is not worth it.
    /// Only with libxml2 2.9, whose parser state the reasoning above was checked against
    /// (2.14 rewrote the HTML parser); other versions parse with one parser.
    static let halvesThreshold = LIBXML_VERSION / 100 == 209 ? 1 << 20 : Int.max

    /// Where the second parser starts: the first start tag (`<` and an ASCII letter) at the
    /// start of a line within 64 KiB past the middle, else the first start tag past the middle.
    static func splitPoint(_ buffer: UnsafeBufferPointer<UInt8>) -> Int? {
        let middle = buffer.count / 2
        guard middle > 0 else { return nil }
        var any: Int?
        var i = middle
        while i + 1 < buffer.count {
            if buffer[i] == UInt8(ascii: "<"), isASCIILetter(buffer[i + 1]) {
                if buffer[i - 1] == UInt8(ascii: "\n") { return i }
                if any == nil { any = i }
            }
            if i - middle >= 65536, let any { return any }
            i += 1
        }
        return any
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// The page's start elements from two parsers, the second starting at `split` (a start
    /// tag): the first parser's up to where they met, then the second's (or all the first's),
    /// and whether they met (false: the first parser did all the work).
    static func inHalves(_ buffer: UnsafeBufferPointer<UInt8>, at split: Int, everyURLAttribute: Bool)
        -> (parts: [ArraySlice<StartElement>], met: Bool)
    {
        let finished = WorkerPool.Handoff<Halves.States>()
        let stop = WorkerPool.Handoff<Bool>()
        let states = Halves.States(stop: stop)
        let join = Halves.Join(split: split, finished: finished)
        let first = Collector(from: 0, everyURLAttribute: everyURLAttribute, expected: buffer.count)
        let second = Collector(from: split, everyURLAttribute: everyURLAttribute, expected: buffer.count - split)
        first.join = join
        second.states = states
        defer {
            first.close()
            second.close()
        }
        // `buffer` outlives both parsers: `both` returns when both have.
        _ = WorkerPool.both(
            {
                parse(buffer, into: second)
                finished.give(states)
            },
            {
                parse(buffer, into: first)
                stop.give(true)  // the second, if still parsing, is of no more use
            })
        guard let met = join.met else { return ([first.elements[...]], false) }
        return ([first.elements[..<met.first], second.elements[met.second...]], true)
    }

    enum Halves {
        /// The second parser's state at each start tag it reported with attributes, in order.
        final class States {
            private(set) var consumed: [Int] = []
            /// The element's index among the second parser's elements.
            private(set) var element: [Int] = []
            /// Where its open elements start in `names`, and how many there are.
            private var start: [Int] = []
            private var count: [Int] = []
            private var depth: [Int32] = []
            private var html: [Int32] = []
            /// The open elements, innermost last: the parser's dictionary names (valid while its
            /// context is open).
            private var names: [UnsafePointer<xmlChar>?] = []
            private let stop: WorkerPool.Handoff<Bool>

            init(stop: WorkerPool.Handoff<Bool>) { self.stop = stop }

            /// Records the state after the start tag of `element`; false when the first parser
            /// has finished and this one should stop.
            func record(_ context: htmlParserCtxtPtr, consumed position: Int, element index: Int) -> Bool {
                if consumed.count % 256 == 255, stop.isGiven { return false }
                let open = Int(context.pointee.nameNr)
                consumed.append(position)
                element.append(index)
                start.append(names.count)
                count.append(open)
                depth.append(context.pointee.depth)
                html.append(context.pointee.html)
                if let tab = context.pointee.nameTab {
                    names.append(contentsOf: UnsafeBufferPointer(start: tab, count: open))
                }
                return true
            }

            /// Whether the parser of `context` is in the state recorded at `i`.
            func matches(_ i: Int, _ context: htmlParserCtxtPtr) -> Bool {
                let open = Int(context.pointee.nameNr)
                guard count[i] == open, depth[i] == context.pointee.depth, html[i] == context.pointee.html else {
                    return false
                }
                guard open > 0 else { return true }
                guard let tab = context.pointee.nameTab else { return false }
                for k in 0..<open where xmlStrEqual(tab[k], names[start[i] + k]) == 0 { return false }
                return true
            }
        }

        /// The first parser's side: past the split, looks for the second's state.
        final class Join {
            let split: Int
            private let finished: WorkerPool.Handoff<States>
            private var states: States?
            private var cursor = 0
            /// The first parser's element count when it stopped, and the second's element there.
            private(set) var met: (first: Int, second: Int)?

            init(split: Int, finished: WorkerPool.Handoff<States>) {
                self.split = split
                self.finished = finished
            }

            /// Whether the first parser, at the start tag of its element `index` ending at
            /// `position`, is in the state the second recorded there.
            func meets(_ context: htmlParserCtxtPtr, consumed position: Int, element index: Int) -> Bool {
                // Waits for the second parser (it never waits for this one): parsing on into its
                // half meanwhile would only take a processor from it and from the page's scan.
                if states == nil { states = finished.take() }
                guard let states else { return false }
                while cursor < states.consumed.count, states.consumed[cursor] < position { cursor += 1 }
                guard cursor < states.consumed.count, states.consumed[cursor] == position,
                    states.matches(cursor, context)
                else { return false }
                met = (index, states.element[cursor])
                return true
            }
        }
    }
}
