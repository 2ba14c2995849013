import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Why a download failed (messages name the cause; the caller adds the URL).
public enum FetchError: Error, CustomStringConvertible, Equatable {
    /// Not a URL; why, when the URL Standard's failure is known.
    case malformedURL(String?)
    case unsupportedScheme(String)
    case http(Int, String)
    case tooLarge(limit: Int64, declared: Int64?)
    case truncated(expected: Int64, received: Int64)
    case transport(String)
    case store(String)
    /// A 304 whose strong ETag is not the stored one's (handled inside the fetcher).
    case otherRepresentation
    /// A fresh stored negative answer (a 404 kept for its max-age).
    case storedStatus(Int)
    /// The request said `Cache-Control: only-if-cached` and the store cannot answer it.
    case notCached
    /// A resumed download the server would not continue (416, or another range than asked):
    /// handled inside the fetcher, which downloads the whole body instead.
    case resumeRefused

    /// The error in words, as the command prints it.
    public var description: String {
        switch self {
        case .malformedURL(let why): return "malformed URL" + (why.map { ": " + $0 } ?? "")
        case .unsupportedScheme(let scheme): return "unsupported scheme '\(scheme)' (http and https only)"
        case .http(let code, let reason):
            // RFC 9110 §15: a status code outside 100...599 is none; an empty phrase adds no space.
            guard (100...599).contains(code) else {
                return "HTTP \(code) (not a status code: they run from 100 to 599)"
            }
            return "HTTP \(code)" + (reason.isEmpty ? "" : " \(reason)")
        case .tooLarge(let limit, let declared):
            return declared.map { "body of \($0) bytes is larger than --max-body (\(limit) bytes)" }
                ?? "body grew larger than --max-body (\(limit) bytes); download stopped"
        case .truncated(let expected, let received):
            return "connection ended after \(received) of \(expected) bytes (Content-Length)"
        case .transport(let text): return text
        case .store(let text): return text
        case .otherRepresentation: return "the server validated another representation than the stored one"
        case .storedStatus(let code): return "HTTP \(code) (a fresh stored answer; no request made)"
        case .notCached: return "HTTP 504: not in the cache, and the request said only-if-cached (no request made)"
        case .resumeRefused: return "the server would not resume the download"
        }
    }
}
