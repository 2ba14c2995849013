import GRDB

/// A SQLite file of another program's cache (Apple's `Cache.db`), read without disturbing it
/// and written only while no one else holds it.
final class SQLiteFile {
    let anchor: AnchoredDirectory
    let name: [UInt8]
    var path: RawPath { anchor.path.appending(name) }

    init(_ anchor: AnchoredDirectory, _ name: String) {
        self.anchor = anchor
        self.name = Array(name.utf8)
    }

    /// A read-only connection: from a private copy (with its write-ahead log) when the anchor
    /// must preserve access times (dry runs), else read-only in place — `immutable` when
    /// SQLite cannot make its `-shm` (a full disk, a read-only mount).
    func reader() throws -> ReadConnection {
        if anchor.mustPreserveAccessTimes { return try snapshot() }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let location = anchor.systemPath(of: name)
        do {
            let queue = try DatabaseQueue(path: location.description, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return ReadConnection(queue: queue, snapshotDirectory: nil)
        } catch {
            let queue = try DatabaseQueue(
                path: "file:" + NativeStore.uriEscaped(location) + "?mode=ro&immutable=1", configuration: configuration)
            return ReadConnection(queue: queue, snapshotDirectory: nil)
        }
    }

    /// A private copy of the file and its write-ahead log (`PrivateCopy`).
    private func snapshot() throws -> ReadConnection {
        let directory = try PrivateCopy.ofDatabase(name, in: anchor)
        let connection = ReadConnection(queue: nil, snapshotDirectory: directory)
        var configuration = Configuration()
        configuration.label = "cachectl.snapshot"
        connection.queue = try DatabaseQueue(path: directory.appending(name).description, configuration: configuration)
        return connection
    }

    /// A read-write connection for a removal, refused while another process holds the
    /// database (a lock on it, or on its `-shm`): an application writing it must not have rows
    /// deleted under it. The caller runs its statements in one `BEGIN IMMEDIATE` transaction.
    func writer() throws -> DatabaseQueue {
        if let holder = DatabaseUnits.lockHolder(name, in: anchor) {
            throw StoreError.busyDatabase(path, holder)
        }
        if let refusal = anchor.writeRefusal {
            throw StoreError.readOnly(anchor.path, StoreError.explainWrite(refusal))
        }
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        do {
            return try DatabaseQueue(path: anchor.systemPath(of: name).description, configuration: configuration)
        } catch {
            throw StoreError.cannotWrite(path, NativeStore.describe(error))
        }
    }

    /// Runs `body` in one immediate write transaction; SQLITE_BUSY is "in use".
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        let queue = try writer()
        do {
            var result: T?
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
            }
            return result!
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
            throw StoreError.busyDatabase(path, 0)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotWrite(path, NativeStore.describe(error))
        }
    }
}
