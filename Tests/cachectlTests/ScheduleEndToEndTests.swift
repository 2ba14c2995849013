import CacheKitSystem
import Foundation
import TestSupport
import XCTest

/// `cachectl schedule`: systemd units that systemd itself accepts (`systemd-analyze verify`,
/// installed by Scripts/test-deps), running this binary's prune with checked arguments.
final class ScheduleEndToEndTests: XCTestCase {
    func testWritesUnitsSystemdAccepts() throws {
        guard Run.command(["sh", "-c", "command -v systemd-analyze"]).status == 0 else {
            throw XCTSkip("systemd-analyze is missing: Scripts/test-deps installs it (Debian's systemd package)")
        }
        let tree = TestTree("schedule")
        // A cache path with a space, a percent sign and a dollar: quoted and escaped for systemd.
        let cache = tree.dir("my cache 100%$HOME").description
        let units = tree.path("units").description
        let run = Binary.run([
            "schedule", "--weekly", "--unit-dir", units, "--", cache, "--max-size", "2G", "--max-age", "1M"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let service = String(decoding: try FileIOProbe.read(RawPath(units + "/cachectl-prune.service")), as: UTF8.self)
        let timer = String(decoding: try FileIOProbe.read(RawPath(units + "/cachectl-prune.timer")), as: UTF8.self)
        let escaped = cache.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        XCTAssertTrue(
            service.contains(
                """
                ExecStart=\"\(RawPath(Binary.path).canonical.description)\" \"prune\" \"\(escaped)\" \
                \"--max-size\" \"2G\"
                """
            ), service)
        XCTAssertTrue(timer.contains("OnCalendar=weekly"), timer)
        let verify = Run.command([
            "systemd-analyze", "verify", units + "/cachectl-prune.service", units + "/cachectl-prune.timer"
        ])
        XCTAssertEqual(verify.status, 0, verify.err)
        XCTAssertEqual(verify.err, "", "no warning either")
    }

    func testRefusesArgumentsPruneWouldRefuse() {
        let tree = TestTree("schedule-bad")
        let units = tree.path("units").description
        for args in [
            ["--", "/tmp/x", "--max-size", "1"], ["--", "/tmp/x", "--max-age", "1D"], ["--", "relative/cache"],
            ["--", "/tmp/x", "--dry-run"], ["--", "--no-such-flag"]
        ] {
            let run = Binary.run(["schedule", "--unit-dir", units] + args)
            XCTAssertEqual(run.status, 2, "\(args): \(run.err)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: units), "nothing written")
        let printed = Binary.run(["schedule", "--print", "--", "/tmp/x", "--max-size", "500M"])
        XCTAssertEqual(printed.status, 0, printed.err)
        XCTAssertTrue(printed.out.contains("[Timer]\nOnCalendar=daily"), printed.out)
    }
}
