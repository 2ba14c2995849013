import Foundation
import TestSupport
import XCTest

@testable import CacheKitFetch
@testable import CacheKitStore
@testable import CacheKitSystem

final class CommitQueueTests: XCTestCase {
    /// While a batch waits (here for the writers' lock another writer holds; in a fetch, for
    /// its `syncfs` writing back large bodies), small bodies held in memory keep being taken:
    /// a count of 128 waiting bodies used to stop every download until the batch was done.
    /// Once the batch can go, every body is committed.
    func testSmallBodiesKeepBeingTakenWhileABatchWaits() throws {
        let tree = TestTree("commits")
        let store = try NativeStore.open(tree.path("store"), create: true)
        var held: FileLock? = try store.lockWriters(exclusive: true)
        let queue = CommitQueue(store: store)
        let count = 1000
        let submitted = Locked(0)
        let allSubmitted = DispatchSemaphore(value: 0)
        Task {
            for i in 0..<count {
                let body = try store.beginBody(url: "http://a.example/\(i)", inMemoryUpTo: 4096)
                try Array("body \(i)".utf8).withUnsafeBytes { try body.append($0) }
                try body.seal(flush: false)
                _ = await queue.submit(body, PutOptions(lifetime: 600))
                submitted.withLock { $0 += 1 }
            }
            allSubmitted.signal()
        }
        // A hang detector, not a time limit: the bodies are taken in microseconds, or never.
        let taken = allSubmitted.wait(timeout: .now() + 60) == .success
        XCTAssertTrue(taken, "submitting stopped at \(submitted.withLock { $0 }) of \(count) while the batch waited")
        held = nil
        if !taken { allSubmitted.wait() }
        let results = Locked<[Int: Result<NativeRecord, Error>]>([:])
        let finished = DispatchSemaphore(value: 0)
        Task {
            let outcome = await queue.finish()
            results.withLock { $0 = outcome }
            finished.signal()
        }
        finished.wait()
        let outcome = results.withLock { $0 }
        XCTAssertEqual(outcome.count, count)
        XCTAssertEqual(outcome.values.filter { if case .success = $0 { true } else { false } }.count, count)
        XCTAssertNotNil(try store.lookup(url: "http://a.example/\(count - 1)"))
        withExtendedLifetime(held) {}
    }
}
