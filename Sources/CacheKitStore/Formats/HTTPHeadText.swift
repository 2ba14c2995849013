import CacheKitSystem
import Foundation

/// A stored response head, as browsers keep it beside a body.
enum HTTPHeadText {
    /// The content coding a stored head names (`Content-Encoding: gzip`), or nil for none or
    /// `identity`. The head's lines may end in NUL (Chromium's raw headers), CR or LF
    /// (Firefox's `response-head`); a field is found only at the start of a line.
    static func contentCoding(_ bytes: [UInt8]) -> String? {
        let name = Array("content-encoding:".utf8)
        for line in bytes.split(whereSeparator: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) {
            guard line.count > name.count, zip(line, name).allSatisfy({ $0 | 0x20 == $1 }) else {
                continue
            }
            let value = String(decoding: line.dropFirst(name.count), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            if !value.isEmpty, value.lowercased() != "identity" { return value }
        }
        return nil
    }

    /// A browser entry's body as `inlineBody` read it (`body`, nil when the file is not
    /// whole), or a refusal naming the coding it is stored in.
    static func body(_ read: Result<(body: [UInt8]?, coding: String?), Errno>, of path: RawPath) throws -> [UInt8]? {
        guard case .success(let (bytes, coding)) = read else { return nil }
        if let coding {
            throw StoreError.cannotRead(
                path, "the body is stored as the server coded it (Content-Encoding: \(coding)), not decoded")
        }
        return bytes
    }
}
