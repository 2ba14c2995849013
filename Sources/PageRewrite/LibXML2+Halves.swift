import CLibXML2
import CacheKitSystem

/// A large page parsed by two libxml2 parsers at once, with exactly the elements one parser
/// reports.
///
/// The first parser parses from the beginning. A thread that has nothing else to do while it
/// runs (localize's scanning thread, once its own work is done) starts a second parser at a
/// start tag halfway between where the first has got to and the end, with nothing open.
///
/// What libxml2 2.9's HTML parser reports after a start tag depends only on the input from
/// there and three pieces of its state (HTMLparser.c at v2.9.14): the open elements, `nameTab`
/// (autoclosing, implied elements, `<script>` and `<style>` read as text: htmlAutoClose 1579,
/// htmlCheckImplied 1663, htmlParseContentInternal 4710); `depth`, the misplaced `<html>`,
/// `<head>` and `<body>` tags it ignored, whose end tags it then ignores too (htmlParseStartTag
/// 3987-4011, htmlParseEndTag 4171); and `html`, whether a head or a body was opened
/// (htmlnamePush 169-172, htmlCheckImplied 1686, 1700). The second parser records that state at
/// each start tag it reports with attributes: always the end of htmlParseStartTag, never an
/// implied element. Once it has finished (the first waits for it at the split), the first, past
/// the split, compares its own state at each such tag with the record for the same tag (by
/// position). Where the two are equal, the rest of the parse is the same in both: the first
/// stops there, and the page's elements are the first parser's up to that tag and the second's
/// from it.
///
/// If they never meet (the split fell inside a script or a comment, or the page's open
/// elements never come back to what the second parser has), the first parser goes on to the
/// end alone and the second's work is dropped: the result is one parser's either way.
extension LibXML2 {
    /// Pages from this size may be parsed in halves. Only with libxml2 2.9, whose parser state
    /// the reasoning above was checked against (2.14 rewrote the HTML parser); other versions
    /// parse with one parser.
    static let halvesThreshold = LIBXML_VERSION / 100 == 209 ? 1 << 20 : Int.max

    /// Where a second parser starts: the first start tag (`<` and an ASCII letter) at the start
    /// of a line within 64 KiB from `from` (the middle by default), else the first start tag.
    static func splitPoint(_ buffer: UnsafeBufferPointer<UInt8>, from: Int? = nil) -> Int? {
        let middle = max(1, from ?? buffer.count / 2)
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
    /// tag) at once: the first parser's up to where they met, then the second's (or all the
    /// first's), and whether they met (false: the first parser did all the work). The tests'
    /// way in: localize starts the second parser when a thread is free (`SecondHalf.parse`).
    static func inHalves(_ page: [UInt8], at split: Int, everyURLAttribute: Bool)
        -> (parts: [ArraySlice<StartElement>], met: Bool)
    {
        let half = SecondHalf(page, everyURLAttribute: everyURLAttribute)
        _ = half.claim(at: split)
        let (_, parts) = WorkerPool.both(
            { half.run(from: split) },
            { startElementParts(ofUTF8: page, everyURLAttribute: everyURLAttribute, secondHalf: half) })
        return (parts, parts.count == 2)
    }

    /// A page's second half, parsed on another thread while the first parser runs (`parse`).
    final class SecondHalf: @unchecked Sendable {
        // @unchecked Sendable: `position`, `split` and `closed` are only touched with `lock`
        // held; the collector belongs to the thread parsing the second half until `finished`
        // hands it to the first parser's.
        let page: [UInt8]
        let everyURLAttribute: Bool
        private let lock = ConditionLock()
        /// How far the first parser has got, as it last said.
        private var position = 0
        /// Where the second parser starts, once one does.
        private var split: Int?
        /// The first parser has finished: no second one starts any more.
        private var closed = false
        /// The second parser's collector, when it has finished.
        let finished = WorkerPool.Handoff<Collector>()
        /// Given when the first parser has finished without meeting the second: it can stop.
        let stop = WorkerPool.Handoff<Bool>()

        /// Less than this left for the first parser, and no second one starts.
        static let minimumLeft = 512 << 10

        init(_ page: [UInt8], everyURLAttribute: Bool) {
            self.page = page
            self.everyURLAttribute = everyURLAttribute
        }

        /// For a thread with nothing else to do: parses the second half of what the first
        /// parser has not reached yet, unless that is little or the first has finished.
        /// `nearestTag` gives the start tag nearest an offset (the scanned tags'), else the
        /// split is looked for in the bytes (`splitPoint`).
        func parse(nearestTag: ((Int) -> Int?)? = nil) {
            guard let split = claim(at: nil, nearestTag: nearestTag) else { return }
            Trace.mark("second parser from \(split) of \(page.count)")
            run(from: split)
        }

        /// Decides where the second parser starts (`at`, or the start tag nearest halfway from
        /// the first parser's position to the end, so that both have as much left); nil when
        /// none is to start.
        func claim(at given: Int?, nearestTag: ((Int) -> Int?)? = nil) -> Int? {
            lock.withLock {
                guard !closed, split == nil else { return nil }
                if let given {
                    split = given
                } else {
                    guard page.count - position >= Self.minimumLeft else { return nil }
                    let middle = position + (page.count - position) / 2
                    if let near = nearestTag?(middle), near > position + Self.minimumLeft / 2,
                        page.count - near >= Self.minimumLeft / 2
                    {
                        split = near
                    } else {
                        split = page.withUnsafeBufferPointer { LibXML2.splitPoint($0, from: middle) }
                    }
                }
                return split
            }
        }

        /// Parses from `split` (claimed) to the end, recording the parser's states.
        func run(from split: Int) {
            let collector = Collector(from: split, everyURLAttribute: everyURLAttribute, expected: page.count - split)
            collector.states = Halves.States(stop: stop)
            page.withUnsafeBufferPointer { LibXML2.parse($0, into: collector) }
            finished.give(collector)
        }

        /// The first parser's position; returns where the second parser started, if it has.
        func publish(_ consumed: Int) -> Int? {
            lock.withLock {
                position = consumed
                return split
            }
        }

        /// The first parser has finished: returns whether a second parser started.
        func close() -> Bool {
            lock.withLock {
                closed = true
                return split != nil
            }
        }
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

            /// The most open elements a recorded state has (pages measured nest 10 to 40 deep).
            static let deepest = 256

            /// Records the state after the start tag of `element`; false when the first parser
            /// has finished and this one should stop.
            func record(_ context: htmlParserCtxtPtr, consumed position: Int, element index: Int) -> Bool {
                if consumed.count % 256 == 255, stop.isGiven { return false }
                let open = Int(context.pointee.nameNr)
                // A state this deep is not recorded (the parsers cannot meet there: the first
                // reads on alone). Copying every open element at every tag made 100,000 nested
                // tags quadratic in time and memory.
                guard open <= Self.deepest else { return true }
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
            let half: SecondHalf
            /// Where the second parser started, once the first knows it has.
            private(set) var split: Int?
            /// The second parser's collector, once it has finished.
            private(set) var second: Collector?
            private var cursor = 0
            /// The first parser's element count when it stopped, and the second's element there.
            private(set) var met: (first: Int, second: Int)?

            init(_ half: SecondHalf) { self.half = half }

            /// Tells the second half where the first parser is; learns whether it has started.
            func publish(_ consumed: Int) {
                if split == nil { split = half.publish(consumed) }
            }

            /// Whether the first parser, at the start tag of its element `index` ending at
            /// `position`, is in the state the second recorded there.
            func meets(_ context: htmlParserCtxtPtr, consumed position: Int, element index: Int) -> Bool {
                // Waits for the second parser (it never waits for this one): parsing on into its
                // half meanwhile would only take a processor from it and from the page's scan.
                if second == nil {
                    Trace.mark("first parser at the split")
                    second = half.finished.take()
                }
                guard let states = second?.states else { return false }
                while cursor < states.consumed.count, states.consumed[cursor] < position { cursor += 1 }
                guard cursor < states.consumed.count, states.consumed[cursor] == position,
                    states.matches(cursor, context)
                else { return false }
                met = (index, states.element[cursor])
                Trace.mark("parsers met at \(position)")
                return true
            }

            /// After the first parser: the elements, from one parser or the two. Waits for a
            /// second parser still running (told to stop) and frees it.
            func parts(_ first: Collector) -> [ArraySlice<StartElement>] {
                if half.close(), met == nil {
                    half.stop.give(true)
                    if second == nil { second = half.finished.take() }
                }
                defer { second?.close() }
                guard let met, let second else { return [first.elements[...]] }
                return [first.elements[..<met.first], second.elements[met.second...]]
            }
        }
    }
}
