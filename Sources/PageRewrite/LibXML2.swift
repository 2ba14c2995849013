import CLibXML2
import CacheKitSystem
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The libxml2 boundary. Only this file imports `CLibXML2`; it owns every pointer and hands
/// back Swift values.
public enum LibXML2 {
    /// The libxml2 version the package was compiled against: the one it carries, "2.15.3".
    public static let compiledVersion: String = LIBXML_DOTTED_VERSION

    /// The bytes libxml2 is given for `page`: the page, with each comment it would end
    /// elsewhere than browsers do (`StartTagScanner.abruptComments`) blanked with spaces. The
    /// length is the same, so every offset still names the page's own bytes.
    static func input(for page: [UInt8]) -> [UInt8] {
        let abrupt = StartTagScanner.abruptComments(page)
        guard !abrupt.isEmpty else { return page }
        var input = page
        for range in abrupt { input.replaceSubrange(range, with: repeatElement(UInt8(ascii: " "), count: range.count)) }
        return input
    }

    /// Initialises the library once (libxml2 wants this before parsing on several threads)
    /// and routes its leftover messages away from stderr: the library never prints.
    public static func initialize() { _ = initialized }

    private static let initialized: Bool = {
        xmlCheckVersion(LIBXML_VERSION)
        #if canImport(Glibc)
            // glibc's realloc locks the arena that owns the block. Blocks another thread
            // allocated (freed here by the Swift runtime, then handed out again by this thread's
            // cache) keep libxml2 locking the main thread's arena for every attribute it reads,
            // while the main thread allocates in it: measured 1,200-4,000 futex calls a run and
            // the parse ~40 % slower on a 10 MB page. Small blocks are therefore moved by malloc,
            // copy and free, which take no lock for cached sizes; large ones still use realloc.
            // (The setting is process-wide; the functions keep the C library's contracts, so
            // other libxml2 users in the process see no difference but the speed.)
            xmlMemSetup(
                { free($0) }, { malloc($0) },
                { old, size in
                    guard let old, size <= 65536 else { return realloc(old, size) }
                    guard let new = malloc(size) else { return nil }
                    memcpy(new, old, min(malloc_usable_size(old), size))
                    free(old)
                    return new
                }, { $0.flatMap { strdup($0) } })
        #endif
        xmlInitParser()
        xmlSetStructuredErrorFunc(nil) { _, _ in }
        return true
    }()

    static let parseOptions = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NODEFDTD.rawValue)

    /// The name of the root element libxml2's HTML parser builds for `bytes` (recover mode,
    /// no network), or nil when it builds none. A smoke test of the whole boundary.
    public static func rootElementName(ofHTML bytes: [UInt8]) -> String? {
        initialize()
        guard let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                htmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), "about:blank", "UTF-8", parseOptions)
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), let name = root.pointee.name else { return nil }
        return String(cString: name)
    }

    /// One start element as libxml2's HTML parser reported it.
    struct StartElement {
        /// Lower-cased element name.
        var name: String
        /// Attributes as libxml2 decided them: names lower-cased, values entity-decoded (UTF-8).
        var attributes: [(name: String, value: String)]
        /// `xmlByteConsumed` when the element started: the offset, in the original bytes, of
        /// the `>` (or `/>`) closing the start tag.
        var consumed: Int
        /// Whether a `<picture>` element is open around it (libxml2 nests a second
        /// `<source>` inside the first, so "parent is picture" would miss it).
        var insidePicture: Bool
    }

    /// Parses UTF-8 `bytes` with libxml2's HTML parser in SAX mode (no tree is built) and
    /// returns, in document order, every start element that holds an attribute the rewriter
    /// reads (the others, most of a page, are left out). (Other charsets are transcoded by the
    /// caller first: libxml2 2.9's xmlByteConsumed was not exact once a decoder was installed.)
    /// With `everyURLAttribute` false, only the attributes image sites and `<base>` read are
    /// kept (not, say, every `<a href>`): enough unless a base is to be neutralised.
    static func startElements(ofUTF8 bytes: [UInt8], everyURLAttribute: Bool = true) -> [StartElement] {
        initialize()
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return [] }
        return bytes.withUnsafeBufferPointer { oneParser($0, everyURLAttribute: everyURLAttribute) }
    }

    /// `startElements` from one parser.
    static func oneParser(_ buffer: UnsafeBufferPointer<UInt8>, everyURLAttribute: Bool) -> [StartElement] {
        let collector = Collector(everyURLAttribute: everyURLAttribute, expected: buffer.count)
        defer { collector.close() }
        parse(buffer, into: collector)
        return collector.elements
    }

    /// Runs libxml2's HTML parser over `buffer`, reporting to `collector`. The parser context
    /// stays open (the names the collector recorded are its dictionary's) until
    /// `collector.close()`.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, into collector: Collector) {
        let reader = ChunkReader(buffer)
        collector.reader = reader
        guard let context = parserContext(reading: reader) else { return }
        collector.context = context
        // Only the one callback we need: text, comments, end tags and the tree stay off.
        guard let sax = context.pointee.sax else { return }
        sax.pointee = htmlSAXHandler()
        sax.pointee.initialized = 1
        installCallbacks(sax)
        context.pointee.userData = Unmanaged.passUnretained(collector).toOpaque()
        // The name libxml2's dictionary holds for <picture>: open elements are compared by pointer.
        collector.picture = UnsafeRawPointer(xmlDictLookup(context.pointee.dict, "picture", -1))
        // UTF-8 without an encoder: positions stay exact (xmlByteConsumed counts raw
        // bytes), and IGNORE_ENC keeps a lying <meta> from switching the decoder.
        htmlCtxtUseOptions(context, parseOptions | Int32(HTML_PARSE_IGNORE_ENC.rawValue))
        // Declare the input UTF-8 up front: otherwise libxml2 2.9 guessed a decoder at the first
        // non-ASCII byte, and from then on xmlByteConsumed reported the whole input.
        xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
        htmlParseDocument(context)
    }

    /// What the SAX callback of `startElements` collects.
    final class Collector {
        // Unchecked exclusivity: the fields are touched by the parse's thread only, through
        // `start` (once per element), and by the caller before and after the parse; the checks
        // were about a tenth of the callback's samples (`perf`, the 13 MB corpus page).
        let everyURLAttribute: Bool
        @exclusivity(unchecked) var context: htmlParserCtxtPtr?
        @exclusivity(unchecked) var elements: [StartElement] = []
        /// libxml2's dictionary name for "picture" in this parser.
        @exclusivity(unchecked) var picture: UnsafeRawPointer?
        let names = NameCache()
        /// Feeds the parser; libxml2 holds it unretained, so it lives as long as this.
        @exclusivity(unchecked) var reader: ChunkReader?

        init(everyURLAttribute: Bool, expected bytes: Int) {
            self.everyURLAttribute = everyURLAttribute
            // Pages measured hold a start tag per 190-250 bytes (fewer are reported: those
            // with an attribute wanted).
            elements.reserveCapacity(bytes / 128)
        }

        /// Frees the parser.
        func close() {
            guard let context else { return }
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            htmlFreeParserCtxt(context)
            self.context = nil
        }

        /// Where in libxml2's stack of open elements each `<picture>` was opened, lowest first;
        /// an entry whose element has since been closed is dropped when next looked at.
        @exclusivity(unchecked) private var pictureDepths: [Int] = []

        /// A start element: kept, with the attributes wanted, when it has any. Its name is
        /// looked up only then: an element without attributes costs the `<picture>` check only.
        func start(_ name: UnsafePointer<xmlChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
            guard let context else { return }
            // Every element passes here, so that each open <picture> is recorded.
            let insidePicture = insidePicture(context)
            guard var cursor = attributes else { return }
            var element: String?
            var pairs: [(name: String, value: String)] = []
            while let attrName = cursor.pointee {
                if let wanted = names.attribute(attrName) {
                    let elementName = element ?? names.element(name)
                    element = elementName
                    if everyURLAttribute || names.wanted[wanted].isRead(on: elementName) {
                        let value = cursor.successor().pointee.map { String(cString: $0) } ?? ""
                        pairs.append((names.wanted[wanted].name, value))
                    }
                }
                cursor = cursor.successor().successor()
            }
            // One with none of the attributes wanted is nothing to the rewriter (most of a page):
            // it is not reported, and not paired with its tag.
            guard !pairs.isEmpty, let element else { return }
            elements.append(
                StartElement(
                    name: element, attributes: pairs, consumed: Int(xmlByteConsumed(context)),
                    insidePicture: insidePicture))
        }

        /// Whether a `<picture>` is among libxml2's open elements around the one it just opened
        /// (the top of its stack). libxml2 nests a second `<source>` inside the first, so
        /// "parent is picture" would miss it. Each element's callback comes here, so every open
        /// picture was recorded when it opened: the last recorded one still open answers, in
        /// constant time amortized (walking the stack made 100,000 nested elements take 1.8 s).
        func insidePicture(_ context: htmlParserCtxtPtr) -> Bool {
            guard let picture, let names = context.pointee.nameTab else { return false }
            let top = Int(context.pointee.nameNr) - 1
            while let depth = pictureDepths.last, depth >= top || UnsafeRawPointer(names[depth]) != picture {
                pictureDepths.removeLast()
            }
            let inside = !pictureDepths.isEmpty
            if top >= 0, UnsafeRawPointer(names[top]) == picture { pictureDepths.append(top) }
            return inside
        }
    }

    /// The one callback `startElements` needs (text, comments, end tags and the tree stay
    /// off): each start element with its wanted attributes, and whether a `<picture>` is open
    /// (libxml2's own open elements say).
    private static func installCallbacks(_ sax: UnsafeMutablePointer<htmlSAXHandler>) {
        sax.pointee.startElement = { user, name, attributes in
            guard let user, let name else { return }
            // Guaranteed alive by the parse: no retain and release per element.
            Unmanaged<Collector>.fromOpaque(user)._withUnsafeGuaranteedRef { $0.start(name, attributes) }
        }
    }

    /// A parser context that reads the input through a callback, a chunk at a time, as
    /// libxml2 reads a file. (htmlCreateMemoryParserCtxt copies the whole input first: for a
    /// 10 MB page, 2,400 page faults and the copy. Positions are the same: xmlByteConsumed
    /// counts what was read.) `reader` must outlive the context.
    private static func parserContext(reading reader: ChunkReader) -> htmlParserCtxtPtr? {
        guard reader.buffer.count > 0, let context = htmlNewParserCtxt() else { return nil }
        let input = xmlParserInputBufferCreateIO(
            { user, out, length in
                guard let user, let out, length >= 0 else { return -1 }
                return Unmanaged<ChunkReader>.fromOpaque(user).takeUnretainedValue().read(
                    into: out, length: Int(length))
            }, nil, Unmanaged.passUnretained(reader).toOpaque(), XML_CHAR_ENCODING_NONE)
        guard let input else {
            htmlFreeParserCtxt(context)
            return nil
        }
        guard let stream = xmlNewIOInputStream(context, input, XML_CHAR_ENCODING_NONE) else {
            xmlFreeParserInputBuffer(input)
            htmlFreeParserCtxt(context)
            return nil
        }
        xmlCtxtPushInput(context, stream)
        return context
    }

    /// Hands out a buffer's bytes in order, as many as asked each time, each NUL as a space:
    /// libxml2 2.9's HTML parser stopped at a NUL byte (`<p>\0</p><img …>` gave no image)
    /// where browsers read on (HTML's tokenizer drops it, or makes it U+FFFD; the carried 2.15
    /// reads on too). The length is
    /// the same, so every offset still names the page's own bytes; an attribute value holding
    /// a NUL then differs from the page's and is left alone (`ValueMap`).
    final class ChunkReader {
        let buffer: UnsafeBufferPointer<UInt8>
        private var offset = 0

        init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

        func read(into out: UnsafeMutablePointer<CChar>, length: Int) -> Int32 {
            let count = min(length, buffer.count - offset)
            guard count > 0, let base = buffer.baseAddress else { return 0 }
            UnsafeMutableRawPointer(out).copyMemory(from: base + offset, byteCount: count)
            var rest = UnsafeMutableRawPointer(out)
            var left = count
            while left > 0, let nul = memchr(rest, 0, left) {
                nul.storeBytes(of: UInt8(ascii: " "), as: UInt8.self)
                left -= nul - rest + 1
                rest = nul + 1
            }
            offset += count
            return Int32(count)
        }
    }

    /// Names as Swift strings, made once per distinct name. libxml2 hands the same pointer for
    /// the same name (its dictionary, or static strings for implied elements); each hit is
    /// still checked byte for byte, so a reused address can never return a wrong name.
    ///
    /// A table of plain slots, found by the pointer's bits: no key hashed and no reference
    /// counted per lookup, as a dictionary of names did (with the callback's other changes, its
    /// share of the 13 MB corpus page's samples went from 6.2 % to 3.9 %). Past `limit`
    /// distinct names (a page that makes up names), the rest are worked out each time.
    final class NameCache {
        private struct Slot {
            var pointer: UnsafeRawPointer?
            /// A copy of the name's bytes, NUL-terminated (freed with the cache).
            var copy: UnsafeMutablePointer<xmlChar>?
            /// An index into `elementNames` or `wanted`; -1: an attribute not wanted.
            var value: Int
        }

        private static let size = 1024
        private static let limit = 512
        /// The slots, in memory of the cache's own: arrays in its fields were retained and
        /// released for every lookup, each attribute of every element of a page.
        private let elementSlots = NameCache.emptySlots()
        private let attributeSlots = NameCache.emptySlots()
        @exclusivity(unchecked) private var elementNames: [String] = []
        @exclusivity(unchecked) private var attributeCount = 0
        /// What `attribute`'s index names (`LibXML2.wantedInOrder`).
        let wanted = LibXML2.wantedInOrder

        deinit {
            for slots in [elementSlots, attributeSlots] {
                for slot in slots { slot.copy?.deallocate() }
                slots.deallocate()
            }
        }

        private static func emptySlots() -> UnsafeMutableBufferPointer<Slot> {
            let slots = UnsafeMutableBufferPointer<Slot>.allocate(capacity: size)
            slots.initialize(repeating: Slot(pointer: nil, copy: nil, value: 0))
            return slots
        }

        func element(_ pointer: UnsafePointer<xmlChar>) -> String {
            switch Self.find(pointer, in: elementSlots) {
            case .found(let index): return elementNames[index]
            case .empty(let slot) where elementNames.count < Self.limit:
                elementNames.append(String(cString: pointer))
                elementSlots[slot] = Slot(
                    pointer: UnsafeRawPointer(pointer), copy: Self.copy(pointer), value: elementNames.count - 1)
                return elementNames[elementNames.count - 1]
            default: return String(cString: pointer)
            }
        }

        /// The index in `wanted` of the attribute when the rewriter reads it, else nil.
        func attribute(_ pointer: UnsafePointer<xmlChar>) -> Int? {
            switch Self.find(pointer, in: attributeSlots) {
            case .found(let index): return index >= 0 ? index : nil
            case .empty(let slot) where attributeCount < Self.limit:
                let index = LibXML2.wantedIndex(pointer)
                attributeCount += 1
                attributeSlots[slot] = Slot(
                    pointer: UnsafeRawPointer(pointer), copy: Self.copy(pointer), value: index ?? -1)
                return index
            default: return LibXML2.wantedIndex(pointer)
            }
        }

        private static func copy(_ pointer: UnsafePointer<xmlChar>) -> UnsafeMutablePointer<xmlChar> {
            let count = Int(xmlStrlen(pointer)) + 1
            let copy = UnsafeMutablePointer<xmlChar>.allocate(capacity: count)
            copy.initialize(from: pointer, count: count)
            return copy
        }

        private enum Found {
            case found(Int)
            case empty(Int)
            case full
        }

        /// The slot holding `pointer`'s name (its value), or the empty one it would go in.
        private static func find(_ pointer: UnsafePointer<xmlChar>, in slots: UnsafeMutableBufferPointer<Slot>) -> Found
        {
            let bits = UInt(bitPattern: pointer)
            var i = Int(truncatingIfNeeded: (bits >> 3) ^ (bits >> 13)) & (size - 1)
            for _ in 0..<size {
                guard let known = slots[i].pointer else { return .empty(i) }
                if known == UnsafeRawPointer(pointer), xmlStrEqual(pointer, slots[i].copy) != 0 {
                    return .found(slots[i].value)
                }
                i = (i + 1) & (size - 1)
            }
            return .full
        }
    }

    /// An attribute the rewriter reads, and where image sites and `<base>` read it.
    struct Wanted {
        let name: String
        /// Nil: on every element. Empty: never (only made absolute under a neutralised base).
        let elements: [String]?

        init(_ name: String) {
            self.name = name
            switch name {
            case "href": elements = ["link", "image", "base"]
            case "xlink:href": elements = ["image"]
            case "rel": elements = ["link"]
            case "type": elements = ["input"]
            case "background": elements = PageRewriter.Sites.backgroundElements
            case "src", "srcset", "style", "poster", "data-src", "data-srcset", "data-original", "data-lazy-src",
                "data-lazy-srcset":
                elements = nil
            default: elements = []
            }
        }

        func isRead(on element: String) -> Bool { elements.map { $0.contains(element) } ?? true }
    }

    /// Attributes the rewriter reads (image sites, base, rel/type, style, and the URL
    /// attributes made absolute when a base is neutralised: `ping`'s list, a refresh
    /// `<meta>`'s `content` too); others are not copied.
    static let wantedAttributes: [[UInt8]] = [
        "src", "srcset", "href", "xlink:href", "style", "rel", "type", "poster",
        "data-src", "data-srcset", "data-original", "data-lazy-src", "data-lazy-srcset", "action", "formaction", "cite",
        "data", "background", "longdesc", "usemap", "manifest", "icon", "codebase", "ping", "content", "http-equiv"
    ].map { Array($0.utf8) }

    /// Where `name` is in `wantedAttributes`, or nil. Compared by length, then bytes: cheaper
    /// than hashing every attribute name.
    static func wantedIndex(_ name: UnsafePointer<xmlChar>) -> Int? {
        let length = Int(xmlStrlen(name))
        for (index, wanted) in wantedAttributes.enumerated() where wanted.count == length && wanted[0] == name[0] {
            if wanted.withUnsafeBufferPointer({ xmlStrncmp($0.baseAddress, name, Int32(length)) }) == 0 { return index }
        }
        return nil
    }

    /// `Wanted` for each of `wantedAttributes`, in its order.
    static let wantedInOrder = wantedAttributes.map { Wanted(String(decoding: $0, as: UTF8.self)) }

    /// The code point of an HTML 4 named entity as libxml2 knows it (`amp` → 38).
    static func entity(named name: String) -> UInt32? {
        guard let entry = htmlEntityLookup(name) else { return nil }
        return UInt32(entry.pointee.value)
    }
}
