import CacheKitSystem

/// The URL Standard's basic URL parser (§4.4), without state override (cachectl never sets
/// a URL's parts one by one). Validation errors are not reported: only failures, as the
/// standard's test data expects.
package struct URLParser {
    package typealias Record = StandardURL.Record

    package static let file = Array("file".utf8)
    private static let eof = -1

    private enum State {
        case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority, relative, relativeSlash
        case specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authority, host, port
        case file, fileSlash, fileHost, pathStart, path, opaquePath, query, fragment
    }

    private var input: [UInt8]
    private let base: Record?
    private var url = Record()
    private var state = State.schemeStart
    private var buffer: [UInt8] = []
    private var pointer = 0
    private var atSignSeen = false, insideBrackets = false, passwordTokenSeen = false
    /// Whether `url.scheme` is special, kept with it (asked for every code point of a path).
    private var special = false
    /// The document's encoding when it is not UTF-8 (see `query`).
    private var queryEncoder: StandardURL.QueryEncoder?

    private mutating func setScheme(_ scheme: [UInt8]) {
        url.scheme = scheme
        special = Self.defaultPort(scheme) != nil || scheme == Self.file
    }

    /// §4.4 basic URL parser, steps 1–3 then the state machine. `input` is the UTF-8 of the
    /// text; it is consumed (tabs and newlines removed in place).
    package static func parse(
        _ input: inout [UInt8], base: Record?, queryEncoder: StandardURL.QueryEncoder? = nil
    ) -> Record? {
        // Step 1: strip leading and trailing C0 control or space.
        var start = 0
        var end = input.count
        while start < end, input[start] <= 0x20 { start += 1 }
        while end > start, input[end - 1] <= 0x20 { end -= 1 }
        // Step 3: remove all ASCII tab or newline.
        if start > 0 || end < input.count || input.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            input = input[start..<end].filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        }
        var parser = URLParser(input: input, base: base)
        parser.queryEncoder = queryEncoder
        input = []
        return parser.run() ? parser.url : nil
    }

    private init(input: [UInt8], base: Record?) {
        self.input = input
        self.base = base
        buffer.reserveCapacity(64)
    }

    // MARK: The state machine

    private mutating func run() -> Bool {
        while true {
            let c = pointer < input.count ? Int(input[pointer]) : Self.eof
            guard step(c) else { return false }
            // "If after a run pointer points to the EOF code point, go to the next step."
            if pointer >= input.count { return true }
            pointer += 1
        }
    }

    /// One pass of step 4 of the basic URL parser; false on failure. (Some states move the
    /// pointer back so that the next state sees the same code point again.)
    private mutating func step(_ c: Int) -> Bool {
        switch state {
        case .schemeStart: schemeStart(c)
        case .scheme: scheme(c)
        case .noScheme: return noScheme(c)
        case .specialRelativeOrAuthority: specialRelativeOrAuthority(c)
        case .pathOrAuthority: pathOrAuthority(c)
        case .relative: relative(c)
        case .relativeSlash: relativeSlash(c)
        case .specialAuthoritySlashes: specialAuthoritySlashes(c)
        case .specialAuthorityIgnoreSlashes:
            if c != 0x2F && c != 0x5C {
                state = .authority
                pointer -= 1
            }
        case .authority: return authority(c)
        case .host: return host(c)
        case .port: return port(c)
        case .file: file(c)
        case .fileSlash: fileSlash(c)
        case .fileHost: return fileHost(c)
        case .pathStart: pathStart(c)
        case .path: path(c)
        case .opaquePath: opaquePath(c)
        case .query: query(c)
        case .fragment:
            if c != Self.eof { Self.percentEncode(UInt8(c), into: &url.fragment!, set: Self.fragmentSet) }
        }
        return true
    }

    /// scheme start state
    private mutating func schemeStart(_ c: Int) {
        if isAlpha(c) {
            buffer.append(lower(c))
            state = .scheme
        } else {
            state = .noScheme
            pointer -= 1
        }
    }

    /// scheme state
    private mutating func scheme(_ c: Int) {
        if isAlphanumeric(c) || c == 0x2B || c == 0x2D || c == 0x2E {
            buffer.append(lower(c))
        } else if c == 0x3A {
            setScheme(buffer)
            buffer.removeAll(keepingCapacity: true)
            if url.scheme == Self.file {
                state = .file
            } else if special, let base, base.scheme == url.scheme {
                state = .specialRelativeOrAuthority
            } else if special {
                state = .specialAuthoritySlashes
            } else if remaining(startsWith: 0x2F) {
                state = .pathOrAuthority
                pointer += 1
            } else {
                url.opaquePath = true
                state = .opaquePath
            }
        } else {
            buffer.removeAll(keepingCapacity: true)
            state = .noScheme
            pointer = -1
        }
    }

    /// no scheme state; false on failure.
    private mutating func noScheme(_ c: Int) -> Bool {
        guard let base, !base.opaquePath || c == 0x23 else { return false }
        if base.opaquePath {
            setScheme(base.scheme)
            url.path = base.path
            url.opaquePath = true
            url.query = base.query
            url.fragment = []
            state = .fragment
        } else {
            state = base.scheme == Self.file ? .file : .relative
            pointer -= 1
        }
        return true
    }

    /// special relative or authority state
    private mutating func specialRelativeOrAuthority(_ c: Int) {
        if c == 0x2F, remaining(startsWith: 0x2F) {
            state = .specialAuthorityIgnoreSlashes
            pointer += 1
        } else {
            state = .relative
            pointer -= 1
        }
    }

    /// path or authority state
    private mutating func pathOrAuthority(_ c: Int) {
        if c == 0x2F {
            state = .authority
        } else {
            state = .path
            pointer -= 1
        }
    }

    /// relative slash state
    private mutating func relativeSlash(_ c: Int) {
        if special, c == 0x2F || c == 0x5C {
            state = .specialAuthorityIgnoreSlashes
        } else if c == 0x2F {
            state = .authority
        } else {
            let base = base!
            (url.username, url.password, url.host, url.port) = (base.username, base.password, base.host, base.port)
            state = .path
            pointer -= 1
        }
    }

    /// special authority slashes state
    private mutating func specialAuthoritySlashes(_ c: Int) {
        if c == 0x2F, remaining(startsWith: 0x2F) {
            pointer += 1
        } else {
            pointer -= 1
        }
        state = .specialAuthorityIgnoreSlashes
    }

    /// relative state
    private mutating func relative(_ c: Int) {
        let base = base!
        setScheme(base.scheme)
        if c == 0x2F || (special && c == 0x5C) {
            state = .relativeSlash
            return
        }
        (url.username, url.password, url.host, url.port) = (base.username, base.password, base.host, base.port)
        (url.path, url.segments, url.query) = (base.path, base.segments, base.query)
        if !startQueryOrFragment(c), c != Self.eof {
            url.query = nil
            url.shortenPath()
            state = .path
            pointer -= 1
        }
    }

    /// authority state
    private mutating func authority(_ c: Int) -> Bool {
        if c == 0x40 {
            if atSignSeen { buffer.insert(contentsOf: Array("%40".utf8), at: 0) }
            atSignSeen = true
            for byte in buffer {
                if byte == 0x3A && !passwordTokenSeen {
                    passwordTokenSeen = true
                    continue
                }
                if passwordTokenSeen {
                    Self.percentEncode(byte, into: &url.password, set: Self.userinfoSet)
                } else {
                    Self.percentEncode(byte, into: &url.username, set: Self.userinfoSet)
                }
            }
            buffer.removeAll(keepingCapacity: true)
        } else if c == Self.eof || c == 0x2F || c == 0x3F || c == 0x23 || (special && c == 0x5C) {
            if atSignSeen && buffer.isEmpty { return false }
            pointer -= buffer.count + 1
            buffer.removeAll(keepingCapacity: true)
            state = .host
        } else {
            buffer.append(UInt8(c))
        }
        return true
    }

    /// host state (hostname state is the same without state override)
    private mutating func host(_ c: Int) -> Bool {
        if c == 0x3A && !insideBrackets {
            guard !buffer.isEmpty, let host = HostParser.parse(buffer, isOpaque: !special) else { return false }
            url.host = host
            buffer.removeAll(keepingCapacity: true)
            state = .port
        } else if c == Self.eof || c == 0x2F || c == 0x3F || c == 0x23 || (special && c == 0x5C) {
            pointer -= 1
            if special && buffer.isEmpty { return false }
            guard let host = HostParser.parse(buffer, isOpaque: !special) else { return false }
            url.host = host
            buffer.removeAll(keepingCapacity: true)
            state = .pathStart
        } else {
            if c == 0x5B { insideBrackets = true }
            if c == 0x5D { insideBrackets = false }
            buffer.append(UInt8(c))
        }
        return true
    }

    /// port state
    private mutating func port(_ c: Int) -> Bool {
        if c >= 0x30 && c <= 0x39 {
            buffer.append(UInt8(c))
        } else if c == Self.eof || c == 0x2F || c == 0x3F || c == 0x23 || (special && c == 0x5C) {
            if !buffer.isEmpty {
                var port = 0
                for digit in buffer {
                    port = port * 10 + Int(digit - 0x30)
                    if port > 65535 { return false }
                }
                url.port = port == Self.defaultPort(url.scheme) ? nil : port
                buffer.removeAll(keepingCapacity: true)
            }
            state = .pathStart
            pointer -= 1
        } else {
            return false
        }
        return true
    }

    /// file state
    private mutating func file(_ c: Int) {
        setScheme(Self.file)
        url.host = []
        if c == 0x2F || c == 0x5C {
            state = .fileSlash
        } else if let base, base.scheme == Self.file {
            (url.host, url.path, url.segments, url.query) = (base.host, base.path, base.segments, base.query)
            if !startQueryOrFragment(c), c != Self.eof {
                url.query = nil
                if !startsWithDriveLetter(pointer) {
                    url.shortenPath()
                } else {
                    (url.path, url.segments) = ([], 0)
                }
                state = .path
                pointer -= 1
            }
        } else {
            state = .path
            pointer -= 1
        }
    }

    /// file slash state
    private mutating func fileSlash(_ c: Int) {
        if c == 0x2F || c == 0x5C {
            state = .fileHost
            return
        }
        if let base, base.scheme == Self.file {
            url.host = base.host
            if !startsWithDriveLetter(pointer), let first = base.firstSegment, Self.isNormalizedDriveLetter(first) {
                url.append(segment: first)
            }
        }
        state = .path
        pointer -= 1
    }

    /// file host state
    private mutating func fileHost(_ c: Int) -> Bool {
        guard c == Self.eof || c == 0x2F || c == 0x5C || c == 0x3F || c == 0x23 else {
            buffer.append(UInt8(c))
            return true
        }
        pointer -= 1
        if Self.isDriveLetter(buffer[...]) {
            // The Windows drive letter quirk: buffer is not reset, the path state uses it.
            state = .path
        } else if buffer.isEmpty {
            url.host = []
            state = .pathStart
        } else {
            guard var host = HostParser.parse(buffer, isOpaque: !special) else { return false }
            if host == Array("localhost".utf8) { host = [] }
            url.host = host
            buffer.removeAll(keepingCapacity: true)
            state = .pathStart
        }
        return true
    }

    /// path start state
    private mutating func pathStart(_ c: Int) {
        if special {
            state = .path
            if c != 0x2F && c != 0x5C { pointer -= 1 }
        } else if !startQueryOrFragment(c), c != Self.eof {
            state = .path
            if c != 0x2F { pointer -= 1 }
        }
    }

    /// path state
    private mutating func path(_ c: Int) {
        let slash = c == 0x2F || (special && c == 0x5C)
        guard c == Self.eof || slash || c == 0x3F || c == 0x23 else {
            Self.percentEncode(UInt8(c), into: &buffer, set: Self.pathSet)
            return
        }
        if Self.isDoubleDot(buffer) {
            url.shortenPath()
            if !slash { url.append(segment: EmptyCollection()) }
        } else if Self.isSingleDot(buffer) {
            if !slash { url.append(segment: EmptyCollection()) }
        } else {
            if url.scheme == Self.file, url.segments == 0, Self.isDriveLetter(buffer[...]) { buffer[1] = 0x3A }
            url.append(segment: buffer)
        }
        buffer.removeAll(keepingCapacity: true)
        _ = startQueryOrFragment(c)
    }

    /// opaque path state
    private mutating func opaquePath(_ c: Int) {
        guard !startQueryOrFragment(c) else { return }
        if c == 0x20 {
            if remaining(startsWith: 0x3F) || remaining(startsWith: 0x23) {
                url.path += Array("%20".utf8)
            } else {
                url.path.append(0x20)
            }
        } else if c != Self.eof {
            Self.percentEncode(UInt8(c), into: &url.path, set: Self.c0ControlSet)
        }
    }

    /// query state. The text is UTF-8 (pages are decoded to UTF-8 before their references
    /// are parsed); a special URL's query is percent-encoded after encoding in the document's
    /// encoding when that is another (`queryEncoder`): "percent-encode after encoding", a code
    /// point the encoding lacks written `%26%23` decimal `%3B` (`&#N;`).
    private mutating func query(_ c: Int) {
        if c == 0x23 || c == Self.eof {
            let set = special ? Self.specialQuerySet : Self.querySet
            // (ASCII is ASCII in every encoding a page may have, but for ISO-2022-JP's
            // escape and shift controls.)
            if special, let encode = queryEncoder,
                buffer.contains(where: { $0 >= 0x80 || $0 == 0x0E || $0 == 0x0F || $0 == 0x1B })
            {
                for run in encode(String(decoding: buffer, as: UTF8.self)) {
                    switch run {
                    case .bytes(let bytes):
                        for byte in bytes { Self.percentEncode(byte, into: &url.query!, set: set) }
                    case .unmappable(let value):
                        url.query! += Array("%26%23\(value)%3B".utf8)
                    }
                }
            } else {
                for byte in buffer { Self.percentEncode(byte, into: &url.query!, set: set) }
            }
            buffer.removeAll(keepingCapacity: true)
            if c == 0x23 {
                url.fragment = []
                state = .fragment
            }
        } else {
            buffer.append(UInt8(c))
        }
    }

    // MARK: Helpers

    /// `?` starts the query and `#` the fragment, as several states say; false (and nothing
    /// done) for any other code point.
    private mutating func startQueryOrFragment(_ c: Int) -> Bool {
        if c == 0x3F {
            url.query = []
            state = .query
        } else if c == 0x23 {
            url.fragment = []
            state = .fragment
        } else {
            return false
        }
        return true
    }

    /// Whether the byte after the pointer is `byte` ("remaining starts with").
    private func remaining(startsWith byte: UInt8) -> Bool {
        pointer + 1 < input.count && input[pointer + 1] == byte
    }

    /// §4.3 "starts with a Windows drive letter", for the input from `index` on.
    private func startsWithDriveLetter(_ index: Int) -> Bool {
        guard index >= 0, input.count - index >= 2, Self.isDriveLetter(input[index..<(index + 2)]) else { return false }
        if input.count - index == 2 { return true }
        let third = input[index + 2]
        return third == 0x2F || third == 0x5C || third == 0x3F || third == 0x23
    }

    /// §4.3 Windows drive letter: an ASCII alpha then `:` or `|`.
    package static func isDriveLetter(_ s: ArraySlice<UInt8>) -> Bool {
        s.count == 2 && isAlpha(Int(s[s.startIndex])) && (s[s.startIndex + 1] == 0x3A || s[s.startIndex + 1] == 0x7C)
    }

    /// §4.3 normalized Windows drive letter: an ASCII alpha then `:`.
    package static func isNormalizedDriveLetter(_ s: ArraySlice<UInt8>) -> Bool {
        s.count == 2 && isAlpha(Int(s[s.startIndex])) && s[s.startIndex + 1] == 0x3A
    }

    /// §4.3 single-dot URL path segment: `.` or `%2e`, case-insensitively.
    package static func isSingleDot(_ s: [UInt8]) -> Bool {
        s == [0x2E] || (s.count == 3 && s[0] == 0x25 && s[1] == 0x32 && s[2] | 0x20 == 0x65)
    }

    /// §4.3 double-dot URL path segment: `..`, `.%2e`, `%2e.`, `%2e%2e`, case-insensitively.
    package static func isDoubleDot(_ s: [UInt8]) -> Bool {
        func isDot(_ part: ArraySlice<UInt8>) -> Bool {
            part.count == 1
                ? part.first == 0x2E
                : part.count == 3 && part[part.startIndex] == 0x25 && part[part.startIndex + 1] == 0x32
                    && part[part.startIndex + 2] | 0x20 == 0x65
        }
        switch s.count {
        case 2: return isDot(s[0..<1]) && isDot(s[1..<2])
        case 4: return (isDot(s[0..<1]) && isDot(s[1..<4])) || (isDot(s[0..<3]) && isDot(s[3..<4]))
        case 6: return isDot(s[0..<3]) && isDot(s[3..<6])
        default: return false
        }
    }

    /// §4.2 special scheme's default port; nil for file and non-special schemes.
    package static func defaultPort(_ scheme: [UInt8]) -> Int? {
        switch scheme.count {
        case 2 where scheme == ws: return 80
        case 3 where scheme == wss: return 443
        case 3 where scheme == ftp: return 21
        case 4 where scheme == http: return 80
        case 5 where scheme == https: return 443
        default: return nil
        }
    }
    package static let ws = Array("ws".utf8), wss = Array("wss".utf8), ftp = Array("ftp".utf8)
    package static let http = Array("http".utf8), https = Array("https".utf8)

    package static func isAlpha(_ c: Int) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    private func isAlpha(_ c: Int) -> Bool { Self.isAlpha(c) }
    private func isAlphanumeric(_ c: Int) -> Bool { Self.isAlpha(c) || (c >= 0x30 && c <= 0x39) }
    private func lower(_ c: Int) -> UInt8 { UInt8(c >= 0x41 && c <= 0x5A ? c | 0x20 : c) }

    // MARK: Percent-encode sets (§1.3)

    /// C0 control percent-encode set: C0 controls and everything above `~`.
    package static let c0ControlSet = ByteSet("", ranges: [0x00...0x1F, 0x7F...0xFF])
    /// fragment percent-encode set: C0 control set and space, `"`, `<`, `>`, `` ` ``.
    package static let fragmentSet = ByteSet(" \"<>`", ranges: [0x00...0x1F, 0x7F...0xFF])
    /// query percent-encode set: C0 control set and space, `"`, `#`, `<`, `>`.
    package static let querySet = ByteSet(" \"#<>", ranges: [0x00...0x1F, 0x7F...0xFF])
    /// special-query percent-encode set: query set and `'`.
    package static let specialQuerySet = ByteSet(" \"#<>'", ranges: [0x00...0x1F, 0x7F...0xFF])
    /// path percent-encode set: query set and `?`, `^`, `` ` ``, `{`, `}`.
    package static let pathSet = ByteSet(" \"#<>?^`{}", ranges: [0x00...0x1F, 0x7F...0xFF])
    /// userinfo percent-encode set: path set and `/`, `:`, `;`, `=`, `@`, `[` to `^`, `|`.
    package static let userinfoSet = ByteSet(" \"#<>?^`{}/:;=@[\\]|", ranges: [0x00...0x1F, 0x7F...0xFF])

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// UTF-8 percent-encode one byte of a code point's UTF-8 encoding.
    @inline(__always) package static func percentEncode(_ byte: UInt8, into out: inout [UInt8], set: ByteSet) {
        if set.contains(byte) {
            out.append(0x25)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 15)])
        } else {
            out.append(byte)
        }
    }
}
