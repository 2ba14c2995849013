import CacheKit
import Foundation
import TestSupport
import XCTest

/// What goes on the wire: request targets as the URL Standard serializes them, proxies from
/// the environment, HTTPS verified against a certificate authority made here with openssl,
/// and a CONNECT tunnel.
final class FetchNetworkEndToEndTests: XCTestCase {
    private func fetch(_ args: [String], _ store: String, environment: [String: String] = [:]) -> RunResult {
        Binary.run(["fetch", "--cache", store] + args, environment: environment)
    }

    func testRequestTargetsAreTheStandardsSerialization() throws {
        let tree = TestTree("fetch-target")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        // As written → what a browser sends: `%2` and `}` stay, dot segments go, `'` in the
        // query is encoded, the host is lower-cased.
        let cases = [
            ("/files/c.txt?q=%22a%22}", "/files/c.txt?q=%22a%22}"),
            ("/files/foo%2", "/files/foo%2"),
            ("/files/a|b[c]", "/files/a|b[c]"),
            ("/x/../files/./c.txt?v='1'", "/files/c.txt?v=%271%27")
        ]
        let run = fetch(cases.map { server.url($0.0) }, store)
        XCTAssertNotEqual(run.status, 2, run.err)
        let seen = server.requests()
        for (_, target) in cases { XCTAssertTrue(seen.contains(target), "\(target) not in \(seen)") }
        XCTAssertTrue(run.out.contains("downloaded\t\(server.url("/files/c.txt?q=%22a%22}"))"), run.out)
        XCTAssertEqual(
            Binary.run(["cat", server.url("/files/c.txt?q=%22a%22}"), "--cache", store, "--allow-stale"]).out,
            "c body\n")
    }

    func testHTTPProxyFromTheEnvironmentAndNoProxy() throws {
        let tree = TestTree("fetch-proxy")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        let proxy = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let env = ["http_proxy": "http://127.0.0.1:\(proxy.port)"]
        let run = fetch(["http://origin.invalid/files/c.txt?cc=max-age=60"], store, environment: env)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(
            proxy.requests().contains("http://origin.invalid/files/c.txt?cc=max-age=60"),
            "absolute form to the proxy: \(proxy.requests())")
        XCTAssertEqual(
            Binary.run(["cat", "http://origin.invalid/files/c.txt?cc=max-age=60", "--cache", store]).out, "c body\n")

        // no_proxy names the host: straight to it, past a proxy that would refuse.
        let direct = fetch(
            [proxy.url("/files/c.txt")], store,
            environment: ["http_proxy": "http://127.0.0.1:9", "no_proxy": "localhost,127.0.0.1"])
        XCTAssertEqual(direct.status, 0, direct.err)
        let refused = fetch([proxy.url("/files/c.txt?x=1")], store, environment: ["http_proxy": "http://127.0.0.1:9"])
        XCTAssertEqual(refused.status, 1, "the proxy is used when no_proxy does not name the host")
        XCTAssertTrue(refused.err.contains("connection refused"), refused.err)
    }

    /// Credentials given with --header stay with the origin they were given for: a redirect
    /// to another host gets neither Authorization nor Cookie (curl's rule since
    /// CVE-2018-1000007; they were sent on); the same host keeps them. A field --header gives
    /// replaces the one cachectl makes (two Host fields were sent).
    func testHeadersGivenStayWithTheirOriginAndReplaceTheMadeOnes() throws {
        let tree = TestTree("fetch-header-origin")
        tree.dir("www")
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let given = ["-H", "Authorization: Bearer s3cret", "-H", "Cookie: session=abc", "-H", "X-Keep: 1"]
        func body(_ url: String) -> String {
            Binary.run(["cat", url, "--cache", store, "--allow-stale"]).out
        }
        let other = "http://localhost:\(server.port)/echo-headers"
        let away = server.url(
            "/seq?r=" + "[[302,{\"Location\":\"\(other)\"},\"\"]]".addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!)
        let run = fetch(given + [away], store)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(body(away).contains("X-Keep: 1"), body(away))
        XCTAssertFalse(body(away).contains("s3cret"), "Authorization went to another host: " + body(away))
        XCTAssertFalse(body(away).contains("session=abc"), "Cookie went to another host: " + body(away))

        let same = server.url(
            "/seq?r=" + "[[302,{\"Location\":\"/echo-headers?same\"},\"\"]]".addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!)
        XCTAssertEqual(fetch(given + [same], store).status, 0)
        XCTAssertTrue(body(same).contains("Authorization: Bearer s3cret"), body(same))

        let hosted = server.url("/echo-headers?host")
        XCTAssertEqual(fetch(["-H", "Host: example.test", hosted], store).status, 0)
        XCTAssertEqual(
            body(hosted).split(separator: "\n").filter { $0.lowercased().hasPrefix("host:") }, ["Host: example.test"])
    }

    /// A proxy variable naming what cachectl cannot use (TLS to the proxy, SOCKS) fails the
    /// request naming it: it went direct (SOCKS), or spoke plain HTTP with the credentials
    /// to a proxy that expects TLS. `no_proxy` takes IPv4 blocks (`127.0.0.0/8`) and matches
    /// addresses whole (`.0.0.1` named 127.0.0.1 as a name suffix).
    func testUnusableProxiesFailAndNoProxyMatchesAddressesWhole() throws {
        let tree = TestTree("fetch-proxy-unusable")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        for proxy in ["https://user:pw@127.0.0.1:\(server.port)", "socks5://127.0.0.1:\(server.port)"] {
            let run = fetch(
                [server.url("/files/c.txt?p=\(proxy.prefix(5))")], store, environment: ["http_proxy": proxy])
            XCTAssertEqual(run.status, 1, run.out)
            XCTAssertTrue(
                run.err.contains("http_proxy=\(proxy)") && run.err.contains("not connecting directly"), run.err)
        }
        XCTAssertTrue(server.requests().isEmpty, "nothing went direct or to the proxy: \(server.requests())")

        let refusing = "http://127.0.0.1:9"
        let block = fetch(
            [server.url("/files/c.txt?block")], store, environment: ["http_proxy": refusing, "no_proxy": "127.0.0.0/8"])
        XCTAssertEqual(block.status, 0, block.err)
        let suffix = fetch(
            [server.url("/files/c.txt?suffix")], store, environment: ["http_proxy": refusing, "no_proxy": ".0.0.1"])
        XCTAssertEqual(suffix.status, 1, "an address is not a name: the proxy is used")
        // The proxy refusing is not the origin refusing: the message names where it connected.
        XCTAssertTrue(suffix.err.contains("cannot connect to 127.0.0.1:9 (the proxy): connection refused"), suffix.err)
    }

    /// A certificate authority and a server certificate for localhost and 127.0.0.1 (or the
    /// subject alternative `names` given), in `folder`.
    private func makeCertificates(
        _ tree: TestTree, names: String = "DNS:localhost,IP:127.0.0.1", folder: String = "pki"
    ) throws -> (ca: String, cert: String, key: String) {
        guard Run.available("openssl") else { throw XCTSkip("openssl is missing (Scripts/test-deps installs it)") }
        let dir = tree.path(folder).description
        tree.dir(folder)
        let script = """
            set -e
            cd '\(dir)'
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=cachectl test CA' \
              -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null
            printf \
            'subjectAltName=\(names)\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' \
            > ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
            -extfile ext 2>/dev/null
            """
        let made = Run.command(["sh", "-c", script])
        XCTAssertEqual(made.status, 0, made.err)
        return (dir + "/ca.pem", dir + "/server.pem", dir + "/server.key")
    }

    func testHTTPSIsVerifiedAgainstTheGivenAuthorityAndTunnelsThroughAProxy() throws {
        let tree = TestTree("fetch-tls")
        tree.file("www/c.txt", contents: Array("secret body\n".utf8))
        let pki = try makeCertificates(tree)
        let server = try TestHTTPServer(root: tree.path("www"), tls: (pki.cert, pki.key))
        let store = tree.path("store").description
        let url = "https://localhost:\(server.port)/files/c.txt?cc=max-age=60"

        let untrusted = fetch([url], store)
        XCTAssertEqual(untrusted.status, 1, "a certificate from an authority the system does not trust is refused")
        XCTAssertTrue(untrusted.err.contains("TLS") || untrusted.err.contains("certificate"), untrusted.err)

        let trusted = fetch([url, "--cacert", pki.ca], store)
        XCTAssertEqual(trusted.status, 0, trusted.err)
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).out, "secret body\n")
        let byAddress = fetch([server.url("/files/c.txt?by=address"), "--cacert", pki.ca], store)
        XCTAssertEqual(byAddress.status, 0, "the certificate names 127.0.0.1 too: " + byAddress.err)

        // Through a proxy: CONNECT, then TLS to the origin inside the tunnel.
        let proxy = try TestHTTPServer(root: tree.path("www"))
        let tunnelled = fetch(
            ["https://localhost:\(server.port)/files/c.txt?via=proxy", "--cacert", pki.ca], store,
            environment: ["https_proxy": "http://127.0.0.1:\(proxy.port)"])
        XCTAssertEqual(tunnelled.status, 0, tunnelled.err)
        XCTAssertEqual(proxy.requests(), ["CONNECT localhost:\(server.port)"])
        XCTAssertTrue(server.requests().contains("/files/c.txt?via=proxy"))
    }

    /// The certificate must name what the URL names: a host name by its DNS names only, an
    /// address by its IP addresses only (RFC 6125 §6.2), whatever address the connection went
    /// to. (The lanes' pipeline said it was connected to 127.0.0.1:9, and NIOSSL matched a
    /// certificate's IP addresses against that: one naming 127.0.0.1 passed for any host
    /// name and any address, and one naming the server's own address failed.)
    func testTheCertificateMustNameWhatTheURLNames() throws {
        let tree = TestTree("fetch-tls-names")
        tree.file("www/c.txt", contents: Array("c\n".utf8))
        let www = tree.path("www")
        let store = tree.path("store").description
        // For another name and 127.0.0.1: at localhost (a name it lacks) and at 127.0.0.2.
        let other = try makeCertificates(tree, names: "DNS:elsewhere.example,IP:127.0.0.1", folder: "other")
        let local = try TestHTTPServer(root: www, tls: (other.cert, other.key))
        let byName = fetch(["https://localhost:\(local.port)/files/c.txt", "--cacert", other.ca], store)
        XCTAssertEqual(byName.status, 1, "its IP address does not stand for the name")
        XCTAssertTrue(byName.err.contains("TLS: the server's certificate does not name this host"), byName.err)
        let elsewhere = try TestHTTPServer(root: www, tls: (other.cert, other.key), host: "127.0.0.2")
        let byOtherAddress = fetch([elsewhere.url("/files/c.txt"), "--cacert", other.ca], store)
        XCTAssertEqual(byOtherAddress.status, 1, "127.0.0.1 is not 127.0.0.2")
        XCTAssertTrue(
            byOtherAddress.err.contains("TLS: the server's certificate does not name this host"), byOtherAddress.err)
        // For 127.0.0.2, at 127.0.0.2.
        let own = try makeCertificates(tree, names: "IP:127.0.0.2", folder: "own")
        let server = try TestHTTPServer(root: www, tls: (own.cert, own.key), host: "127.0.0.2")
        let byAddress = fetch([server.url("/files/c.txt"), "--cacert", own.ca], store)
        XCTAssertEqual(byAddress.status, 0, byAddress.err)
    }

    /// A server that ends TLS with close_notify after its answer, leaving the TCP connection
    /// open: the next request goes on a new connection at once, instead of being written to
    /// a closed TLS session and waiting out the stall timeout.
    func testAConnectionWhoseTLSTheServerEndedIsReplaced() throws {
        let tree = TestTree("fetch-notify")
        let pki = try makeCertificates(tree)
        let server = try TestHTTPServer(root: tree.root, tls: (pki.cert, pki.key), script: "framings.py")
        let store = tree.path("store").description
        let result = fetch(
            [server.url("/notify/a"), server.url("/b"), "--cacert", pki.ca, "--jobs", "1", "--timeout", "20"], store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Binary.run(["cat", server.url("/b"), "--cache", store]).out, "/b")
    }
}
