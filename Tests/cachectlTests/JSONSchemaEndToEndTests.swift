import CacheKit
import Foundation
import TestSupport
import XCTest

/// Every command's `--json` output in each of its views, through the built binary, checked
/// against `docs/schema/<command>.schema.json` (Binary.run validates any `--json` output; these
/// tests make sure every view is produced at least once), and the check itself shown to fail
/// on documents that drift from a schema.
final class JSONSchemaEndToEndTests: XCTestCase {
    private func store(_ tree: TestTree) -> String {
        let store = tree.path("store").description
        let body = tree.file("in/body.png", contents: Images.png)
        XCTAssertEqual(
            Binary.run(["put", "https://example.com/fresh.png", body.description, "--cache", store, "--expires", "1h"])
                .status, 0)
        XCTAssertEqual(
            Binary.run(["put", "https://example.com/old.png", body.description, "--cache", store, "--expires", "1s"])
                .status, 0)
        return store
    }

    /// The output of `args`, which must have been validated (status 0, JSON on stdout).
    @discardableResult
    private func json(_ args: [String], file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = Binary.run(args)
        XCTAssertEqual(result.status, 0, "\(args): \(result.err)", file: file, line: line)
        XCTAssertFalse(result.stdout.isEmpty, "\(args) printed nothing", file: file, line: line)
        return result
    }

    func testDuViews() {
        let tree = TestTree("json-du")
        tree.file("root/a/one", size: 5000)
        tree.file("root/b/two", size: 100)
        tree.file("root/b/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        _ = store(tree)
        let root = tree.path("root").description
        json(["du", "--json", root, tree.path("store").description])
        json(["du", "--json", "-s", root])
        json(["du", "--json", "--max-depth", "1", root])
        json(["du", "--json", "-a", root])
        json(["du", "--json", "-s", "--top", "2", root])
        // An error and a root given twice.
        let mixed = Binary.run(["du", "--json", root, root, tree.path("missing").description])
        XCTAssertEqual(mixed.status, 1)
        XCTAssertTrue(mixed.out.contains("\"errors\""))
    }

    func testLsPruneAndClearViews() {
        let tree = TestTree("json-store")
        let store = store(tree)
        sleep(2)  // the one-second entry expires
        json(["ls", "--json", store])
        json(["ls", "--json", "--state", "expired", store])
        json(["prune", "--json", "--dry-run", "--max-size", "4K", store])
        json(["prune", "--json", store])
        json(["clear", "--json", "--dry-run", store])
        json(["clear", "--json", store])
    }

    func testFetchAndLocalizeViews() throws {
        let tree = TestTree("json-fetch")
        tree.file("www/a.png", contents: Images.png)
        tree.file("www/page.html", contents: Array("<p><img src=a.png><img src=missing.png><a href=x.html>x</a>".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        json(["fetch", "--json", "--cache", store, server.url("/files/a.png"), server.url("/files/a.png")])
        // A failure is a result too (exit 1, still one document).
        let failed = Binary.run(["fetch", "--json", "--cache", store, server.url("/files/nothing.png")])
        XCTAssertEqual(failed.status, 1, failed.err)
        XCTAssertTrue(failed.out.contains("\"failed\""), failed.out)
        // One image is missing on the server: reported, and the document lists every reference.
        let page = Binary.run([
            "localize", "--json", "--cache", store, server.url("/files/page.html"), "--fetch",
            "-o", tree.path("page-out.html").description
        ])
        XCTAssertEqual(page.status, 0, page.err)
        XCTAssertTrue(page.out.contains("\"missing\"") && page.out.contains("\"rewritten\""), page.out)
    }

    /// The check is not vacuous: a document with a key missing, a key added, a wrong type or
    /// a value outside an enumeration is rejected, for every schema.
    func testTheSchemaCheckRejectsDrift() throws {
        let tree = TestTree("json-drift")
        tree.file("root/a/one", size: 5000)
        let du = json(["du", "--json", tree.path("root").description])
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(du.stdout)) as? [String: Any])
        XCTAssertEqual(JSONSchemas.errors(in: du.stdout, command: "du"), [])

        func errors(_ object: Any) throws -> [String] {
            JSONSchemas.errors(in: Array(try JSONSerialization.data(withJSONObject: object)), command: "du")
        }
        var roots = try XCTUnwrap(document["roots"] as? [[String: Any]])
        var root = roots[0]
        root.removeValue(forKey: "apparentBytes")
        roots[0] = root
        document["roots"] = roots
        XCTAssertFalse(try errors(document).isEmpty, "a missing key passed")

        root["apparentBytes"] = 1
        root["newKey"] = true
        roots[0] = root
        document["roots"] = roots
        XCTAssertFalse(try errors(document).isEmpty, "an unknown key passed")

        root.removeValue(forKey: "newKey")
        root["files"] = "3"
        roots[0] = root
        document["roots"] = roots
        XCTAssertFalse(try errors(document).isEmpty, "a string for a number passed")

        root["files"] = 3
        var caches = try XCTUnwrap(root["caches"] as? [[String: Any]])
        caches[0]["kind"] = "folder"
        root["caches"] = caches
        roots[0] = root
        document["roots"] = roots
        XCTAssertFalse(try errors(document).isEmpty, "a value outside the enumeration passed")
        caches[0]["kind"] = "directory"
        root["caches"] = caches
        roots[0] = root
        document["roots"] = roots
        XCTAssertEqual(try errors(document), [])

        for command in JSONSchemas.commands.sorted() {
            XCTAssertTrue(FileManager.default.fileExists(atPath: JSONSchemas.path(for: command)), command)
            XCTAssertFalse(JSONSchemas.errors(in: Array("{\"unexpected\": 1}".utf8), command: command).isEmpty, command)
            XCTAssertFalse(JSONSchemas.errors(in: Array("not json".utf8), command: command).isEmpty, command)
        }
    }
}
