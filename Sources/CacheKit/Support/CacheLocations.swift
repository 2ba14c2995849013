#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where caches live by default on this platform.
public enum CacheLocations {
    /// `$XDG_CACHE_HOME` when set and absolute, else `~/.cache` on Linux;
    /// `~/Library/Caches` on macOS.
    public static func defaultRoot(environment: [String: String]? = nil) -> RawPath {
        let env = environment ?? currentEnvironment()
        #if canImport(Darwin)
        return RawPath(home(env) + "/Library/Caches")
        #else
        if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return RawPath(xdg) }
        return RawPath(home(env) + "/.cache")
        #endif
    }

    static func home(_ env: [String: String]) -> String {
        if let home = env["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for key in ["XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
    }
}

extension CacheLocations {
    /// cachectl's own store by default: `<default root>/cachectl`.
    public static func defaultStore(environment: [String: String]? = nil) -> RawPath {
        defaultRoot(environment: environment).appending("cachectl")
    }
}
