import ArgumentParser
import CacheKit
import Foundation

/// Results in words and JSON.
enum FetchPresenter {
    static func summary(_ results: [FetchResult]) -> String {
        func n(_ outcome: FetchResult.Outcome) -> Int {
            results.filter { $0.outcome == outcome && !$0.duplicate }.count
        }
        let bytes = results.filter { !$0.duplicate }.reduce(Int64(0)) { $0 + $1.bytesReceived }
        return "\(n(.downloaded)) downloaded, \(n(.revalidated)) revalidated, \(n(.hit)) fresh in cache, "
            + "\(n(.notStored)) not stored, \(n(.failed)) failed (\(ByteCount.human(bytes)) received)"
    }
}
