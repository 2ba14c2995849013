import Foundation
import XCTest

@testable import CacheKitSystem

/// `Sys.connectTCP` against a listener that never takes the connection: its queue (one
/// place) is filled first, so the kernel drops the next connection request and `connect`
/// waits.
final class ConnectTests: XCTestCase {
    /// A listening socket on 127.0.0.1 with its queue full, and the connections filling it.
    private func blackhole() throws -> (port: Int, descriptors: [Int32]) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 0) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        var descriptors = [listener]
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            descriptors.append(filler)
        }
        return (Int(UInt16(bigEndian: address.sin_port)), descriptors)
    }

    func testAConnectionNobodyTakesTimesOutOrIsCancelled() throws {
        let hole = try blackhole()
        defer { hole.descriptors.forEach { _ = close($0) } }
        let timedOut = Sys.connectTCP(host: "127.0.0.1", port: hole.port, timeout: 300, ioTimeout: 1000)
        guard case .failure(.timedOut) = timedOut else { return XCTFail("\(timedOut)") }
        var asked = 0
        let cancelled = Sys.connectTCP(host: "127.0.0.1", port: hole.port, timeout: 60_000, ioTimeout: 1000) {
            asked += 1
            return asked > 2
        }
        guard case .failure(.cancelled) = cancelled else { return XCTFail("\(cancelled)") }
        XCTAssertEqual(asked, 3, "asked before the attempt, then between waits, until it said so")
    }
}
