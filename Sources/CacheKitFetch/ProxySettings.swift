import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import URLStandard

/// `http_proxy`, `https_proxy` (also `HTTPS_PROXY`; `HTTP_PROXY` only in lower case, as curl
/// reads it, since CGI sets `HTTP_PROXY` from a request header) and `no_proxy`.
public struct ProxySettings: Sendable {
    var http: HTTPConnectionPool.Proxy?
    var https: HTTPConnectionPool.Proxy?
    /// `no_proxy` entries: host names (a leading `.` optional) matching themselves and their
    /// subdomains, addresses, or `*` for every host.
    var exclusions: [String] = []
    /// A proxy variable set to what cachectl cannot use (`https://` or `socks5://` proxies,
    /// a malformed URL), by the scheme it is for: such requests fail naming it rather than go
    /// direct or in clear text to a proxy that expects TLS.
    var unusable: [String: String] = [:]

    /// No proxies.
    public init() {}

    /// The proxies `http_proxy`, `https_proxy` and `no_proxy` (either case) name, as curl reads them.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ProxySettings
    {
        var settings = ProxySettings()
        for (scheme, variable) in [("http", "http_proxy"), ("https", "https_proxy"), ("https", "HTTPS_PROXY")] {
            guard scheme == "http" || settings.https == nil && settings.unusable["https"] == nil,
                let value = environment[variable], !value.trimmingCharacters(in: .whitespaces).isEmpty
            else { continue }
            switch parse(value) {
            case .success(let proxy): if scheme == "http" { settings.http = proxy } else { settings.https = proxy }
            case .failure(let why): settings.unusable[scheme] = "\(variable)=\(value): \(why.message)"
            }
        }
        settings.exclusions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return settings
    }

    /// Why a proxy URL cannot be used.
    struct Unusable: Error {
        var message: String
    }

    /// A proxy URL: `host:port`, `http://[user:pass@]host[:port]` (port default 1080, as
    /// curl's). An `https://` proxy (TLS to the proxy itself), SOCKS and anything else is
    /// refused: spoken to in plain HTTP, its credentials would cross in clear text.
    static func parse(_ text: String) -> Result<HTTPConnectionPool.Proxy, Unusable> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let written = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let url = StandardURL(written) else {
            return .failure(
                Unusable(message: "not a URL" + (StandardURL.failureReason(written).map { ": " + $0 } ?? "")))
        }
        guard url.scheme == "http" else {
            return .failure(Unusable(message: "\(url.scheme):// proxies are not supported (an http:// proxy is)"))
        }
        guard var host = url.hostname, !host.isEmpty else { return .failure(Unusable(message: "no host")) }
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        return .success(
            HTTPConnectionPool.Proxy(host: host, port: url.port ?? 1080, authorization: url.basicAuthorization))
    }

    func proxy(for url: StandardURL) -> HTTPConnectionPool.Proxy? {
        guard let proxy = url.scheme == "https" ? https : http, !excluded(url) else { return nil }
        return proxy
    }

    /// Why a request for `url` must not be made: its proxy variable is set to one that
    /// cannot be used (and `no_proxy` does not exclude the host).
    func refusal(for url: StandardURL) -> String? {
        guard let why = unusable[url.scheme == "https" ? "https" : "http"], !excluded(url) else { return nil }
        return "cannot use the proxy \(why); not connecting directly"
    }

    /// Whether `no_proxy` names the URL's host: a name and its subdomains; an address only
    /// as itself, or within an IPv4 `address/bits` block (as curl 7.86 on).
    private func excluded(_ url: StandardURL) -> Bool {
        var host = (url.hostname ?? "").lowercased()
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        let address = Self.ipv4(host)
        let isAddress = address != nil || host.contains(":")
        for entry in exclusions {
            if entry == "*" { return true }
            var name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if let colon = name.lastIndex(of: ":"), !name.hasPrefix("["), name.filter({ $0 == ":" }).count == 1 {
                name = String(name[..<colon])  // a port in the entry: curl ignores it too
            }
            if name.hasPrefix("[") { name = String(name.dropFirst().dropLast()) }
            if host == name { return true }
            if isAddress {
                if let address, let slash = name.firstIndex(of: "/"), let network = Self.ipv4(String(name[..<slash])),
                    let bits = UInt32(name[name.index(after: slash)...]), bits <= 32
                {
                    let mask: UInt32 = bits == 0 ? 0 : ~0 << (32 - bits)
                    if address & mask == network & mask { return true }
                }
            } else if host.hasSuffix("." + name) {
                return true
            }
        }
        return false
    }

    /// An IPv4 address by the URL Standard's IPv4 parser (a URL's host serializes one in
    /// dotted decimal), for a name that ends in a number; nil for anything else.
    private static func ipv4(_ text: String) -> UInt32? {
        let bytes = Array(text.utf8)
        return HostParser.endsInANumber(bytes) ? HostParser.parseIPv4(bytes) : nil
    }
}
