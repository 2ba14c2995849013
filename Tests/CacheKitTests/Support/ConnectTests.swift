import Foundation
import XCTest

@testable import CacheKitSystem

/// `Sys.connectTCP` against a listener that never takes the connection: its queue (one
/// place) is filled first, so the kernel drops the next connection request and `connect`
/// waits.
final class ConnectTests: XCTestCase {
    /// A listening socket on 127.0.0.1 with its queue full, and the connections filling it;
    /// with `fill` false, one that takes connections (the kernel answers them).
    private func blackhole(fill: Bool = true) throws -> (port: Int, descriptors: [Int32]) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, fill ? 0 : 8) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        var descriptors = [listener]
        for _ in 0..<(fill ? 4 : 0) {
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
        defer { for fd in hole.descriptors { _ = close(fd) } }
        let timedOut = Sys.connectTCP(host: "127.0.0.1", port: hole.port, timeout: 300, ioTimeout: 1000)
        guard case .failure(.timedOut) = timedOut else { return XCTFail("\(timedOut)") }
        var asked = 0
        let cancelled = Sys.connectTCP(host: "127.0.0.1", port: hole.port, timeout: 60_000, ioTimeout: 1000) {
            asked += 1
            return asked > 2
        }
        guard case .failure(.cancelled) = cancelled else { return XCTFail("\(cancelled)") }
        XCTAssertEqual(asked, 3, "asked between waits until it said so")
    }

    /// Happy Eyeballs: with a first address that never answers, the second one is tried 250
    /// ms later and connects, long before the first one's timeout (10 s).
    func testTheNextAddressIsTriedWhileTheFirstDoesNotAnswer() throws {
        let (hole, open) = (try blackhole(), try blackhole(fill: false))
        defer { for fd in hole.descriptors + open.descriptors { _ = close(fd) } }
        let addresses = [hole.port, open.port].flatMap { port in
            (try? Sys.lookUp("127.0.0.1", port).get()) ?? []
        }
        XCTAssertEqual(addresses.count, 2)
        let started = Date()
        let connected = Sys.connectFirst(addresses, timeout: 10_000, cancelled: { false })
        let took = Date().timeIntervalSince(started)
        guard case .success(let fd) = connected else { return XCTFail("\(connected)") }
        defer { _ = close(fd) }
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        XCTAssertEqual(Int(UInt16(bigEndian: peer.sin_port)), open.port, "the address that answered")
        XCTAssertLessThan(took, 5, "not after the first address's 10 s timeout")
    }
}
