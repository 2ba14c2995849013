import CacheKit
import Foundation

/// Independent oracles for fixture names: the coreutils digest tools.
public enum Oracle {
    public static func digest(_ tool: String, _ text: String) -> String {
        let result = Run.bytes([Array(tool.utf8)], stdin: Array(text.utf8))
        return String(result.out.prefix(while: { $0 != " " }))
    }
    public static func md5(_ text: String) -> String { digest("md5sum", text) }
    public static func sha1(_ text: String) -> String { digest("sha1sum", text) }
    public static func sha256(_ text: String) -> String { digest("sha256sum", text) }

    /// Runs a Python snippet (used to write plists with plistlib and to poke SQLite).
    @discardableResult
    public static func python(_ code: String, _ args: [String] = []) -> RunResult {
        Run.command(["python3", "-c", code] + args)
    }
}

/// Real images (each decodes in Pillow; the JPEG was encoded by libjpeg through Pillow 13),
/// whole or cut short.
public enum Images {
    private static func decode(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }
    /// 1×1 PNG (signature, IHDR, IDAT, IEND, every CRC right).
    public static let png = decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
    /// 2×2 baseline JPEG, 634 bytes.
    public static let jpeg = decode(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMU"
            + "FRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU"
            + "FBQUFBQUFBT/wAARCAACAAIDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF"
            + "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW"
            + "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi"
            + "4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC"
            + "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm"
            + "Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq"
            + "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDwKiiivzI/uM//2Q=="
    )
    /// 1×1 GIF89a with a graphic control extension.
    public static let gif = decode("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")
    /// 1×1 lossless WebP.
    public static let webp = decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
    public static func truncated(_ image: [UInt8]) -> [UInt8] { Array(image.prefix(image.count - 5)) }
}

/// Plain reads and removals for assertions (independent of the store's own I/O).
public enum FileIOProbe {
    public static func read(_ path: RawPath) throws -> [UInt8] {
        let r = Run.bytes([Array("cat".utf8), path.bytes])
        if r.status != 0 { throw StoreError.cannotRead(path, r.err) }
        return r.stdout
    }

    public static func remove(_ path: RawPath) -> Bool { Run.bytes([Array("rm".utf8), path.bytes]).status == 0 }
}

/// The independent "nothing else changed" check for localize: the input with each rewritten
/// reference's original bytes replaced by its local path, and nothing more.
public enum Splice {
    public static func expected(_ input: [UInt8], _ references: [ImageReference]) -> [UInt8] {
        var expected: [UInt8] = []
        var cursor = 0
        for ref in references where ref.outcome == .rewritten {
            expected += input[cursor..<ref.offset]
            expected += Array(ref.localPath!.utf8)
            cursor = ref.offset + ref.length
        }
        expected += input[cursor...]
        return expected
    }
}

/// Apple's URLCache `Cache.db` as CFNetwork lays it out (schema from
/// shared/reference/cache-layouts.md §1: mvt ios/modules/fs/cache_files.py, a Discord-iOS
/// `.dump`), written with Python's sqlite3 in WAL mode; `response_object` a plain binary plist
/// `{Version, Array}` with the status at `Array[3]` and the headers at `Array[4]`
/// (mac_apt plugins/cfurl_cache.py:99-111), written with plistlib.
public enum URLCacheFixture {
    public struct Row {
        public var url: String
        /// Seconds before now the response was stored (`time_stamp`, UTC text).
        public var storedAgo: Int
        public var headers: [String: String]
        /// The body inline, or a file of `fsCachedData/` with this name holding it.
        public var body: [UInt8]
        public var file: String?
        public init(url: String, storedAgo: Int, headers: [String: String], body: [UInt8], file: String? = nil) {
            (self.url, self.storedAgo, self.headers, self.body, self.file) = (url, storedAgo, headers, body, file)
        }
    }

    public static func write(_ root: RawPath, rows: [Row]) {
        let json = rows.map { row -> [String: Any] in
            [
                "url": row.url, "ago": row.storedAgo, "headers": row.headers,
                "body": Data(row.body).base64EncodedString(), "file": row.file ?? NSNull()
            ]
        }
        let text = String(decoding: try! JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        let result = Oracle.python(
            """
            import base64, datetime, json, os, plistlib, sqlite3, sys
            root, rows = sys.argv[1], json.loads(sys.argv[2])
            db = sqlite3.connect(os.path.join(root, 'Cache.db'))
            db.execute('PRAGMA journal_mode=WAL')
            db.executescript('''
            CREATE TABLE IF NOT EXISTS cfurl_cache_response(entry_ID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, \
            version INTEGER, hash_value INTEGER,
                storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp NOT NULL DEFAULT CURRENT_TIMESTAMP, \
            partition TEXT);
            CREATE TABLE IF NOT EXISTS cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, \
            request_object BLOB, proto_props BLOB, user_info BLOB);
            CREATE TABLE IF NOT EXISTS cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, \
            receiver_data BLOB);
            CREATE TABLE IF NOT EXISTS cfurl_cache_schema_version(schema_version INTEGER);
            CREATE INDEX IF NOT EXISTS request_key_index ON cfurl_cache_response(request_key);
            CREATE INDEX IF NOT EXISTS time_stamp_index ON cfurl_cache_response(time_stamp);
            ''')
            db.execute('INSERT INTO cfurl_cache_schema_version VALUES (202)')
            now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None, microsecond=0)
            os.makedirs(os.path.join(root, 'fsCachedData'), exist_ok=True)
            for r in rows:
                stored = now - datetime.timedelta(seconds=r['ago'])
                body = base64.b64decode(r['body'])
                cf_time = (stored - datetime.datetime(2001, 1, 1)).total_seconds()
                response = plistlib.dumps({'Version': 1, 'Array': [
                    {'_CFURLString': r['url'], '_CFURLStringType': 15}, cf_time, 0, 200, r['headers'], len(body),
                    r['headers'].get('Content-Type', 'application/octet-stream')]}, fmt=plistlib.FMT_BINARY)
                cur = db.execute('INSERT INTO cfurl_cache_response(version, hash_value, storage_policy, request_key, \
            time_stamp, partition) VALUES (0, 0, 0, ?, ?, NULL)',
                                 (r['url'], stored.strftime('%Y-%m-%d %H:%M:%S')))
                entry = cur.lastrowid
                db.execute('INSERT INTO cfurl_cache_blob_data VALUES (?, ?, NULL, NULL, NULL)', (entry, response))
                if r['file'] is None:
                    db.execute('INSERT INTO cfurl_cache_receiver_data VALUES (?, 0, ?)', (entry, body))
                else:
                    open(os.path.join(root, 'fsCachedData', r['file']), 'wb').write(body)
                    db.execute('INSERT INTO cfurl_cache_receiver_data VALUES (?, 1, ?)', (entry, r['file']))
            db.commit()
            db.close()
            """, [root.description, text])
        precondition(result.status == 0, "Cache.db fixture: \(result.err)")
    }

    /// The rows left in each of the three tables, as `table:count` joined by spaces.
    public static func counts(_ root: RawPath) -> String {
        Oracle.python(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(' '.join('%s:%d' % (t, db.execute('SELECT count(*) FROM cfurl_cache_' + t).fetchone()[0]) for t in \
            ('response', 'blob_data', 'receiver_data')))
            """, [root.appending("Cache.db").description]
        ).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
