import GRDB

/// A read-only connection, and the private copy it reads (removed with it).
final class ReadConnection {
    var queue: DatabaseQueue?
    let snapshotDirectory: RawPath?

    init(queue: DatabaseQueue?, snapshotDirectory: RawPath?) {
        self.queue = queue
        self.snapshotDirectory = snapshotDirectory
    }

    func read<T>(_ path: RawPath, _ body: (Database) throws -> T) throws -> T {
        guard let queue else { throw StoreError.cannotRead(path, "not open") }
        do { return try queue.read(body) } catch let error as StoreError { throw error } catch {
            throw StoreError.corruptIndex(path, NativeStore.describe(error))
        }
    }

    deinit {
        queue = nil
        if let snapshotDirectory, case .success(let temp) = AnchoredDirectory.open(snapshotDirectory) {
            Deleter.removeTemporaryDirectory(temp)
        }
    }
}
