import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// `http_proxy`, `https_proxy` (also `HTTPS_PROXY`; `HTTP_PROXY` only in lower case, as curl
/// reads it, since CGI sets `HTTP_PROXY` from a request header) and `no_proxy`.
public struct ProxySettings: Sendable {
    var http: HTTPConnectionPool.Proxy?
    var https: HTTPConnectionPool.Proxy?
    /// `no_proxy` entries: host names (a leading `.` optional) matching themselves and their
    /// subdomains, addresses, or `*` for every host.
    var exclusions: [String] = []

    /// No proxies.
    public init() {}

    /// The proxies `http_proxy`, `https_proxy` and `no_proxy` (either case) name, as curl reads them.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ProxySettings
    {
        var settings = ProxySettings()
        settings.http = environment["http_proxy"].flatMap(parse)
        settings.https = (environment["https_proxy"] ?? environment["HTTPS_PROXY"]).flatMap(parse)
        settings.exclusions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return settings
    }

    /// A proxy URL: `host:port`, `http://[user:pass@]host[:port]` (port default 1080, as
    /// curl's).
    static func parse(_ text: String) -> HTTPConnectionPool.Proxy? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let url = StandardURL(trimmed.contains("://") ? trimmed : "http://" + trimmed),
            url.scheme == "http" || url.scheme == "https", var host = url.hostname, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        return HTTPConnectionPool.Proxy(
            host: host, port: url.port ?? (url.scheme == "https" ? 443 : 1080), authorization: url.basicAuthorization)
    }

    func proxy(for url: StandardURL) -> HTTPConnectionPool.Proxy? {
        guard let proxy = url.scheme == "https" ? https : http else { return nil }
        var host = (url.hostname ?? "").lowercased()
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        for entry in exclusions {
            if entry == "*" { return nil }
            var name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if let colon = name.lastIndex(of: ":"), !name.hasPrefix("["), name.filter({ $0 == ":" }).count == 1 {
                name = String(name[..<colon])  // a port in the entry: curl ignores it too
            }
            if name.hasPrefix("[") { name = String(name.dropFirst().dropLast()) }
            if host == name || host.hasSuffix("." + name) { return nil }
        }
        return proxy
    }
}
