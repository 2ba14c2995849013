/// Where caches live by default on this platform.
public enum CacheLocations {
    /// `$XDG_CACHE_HOME` when set, absolute and not `/` or the home directory (either would
    /// make every folder "under the cache root"), else `~/.cache` on Linux;
    /// `~/Library/Caches` on macOS.
    public static func defaultRoot(environment: [String: String]? = nil) -> RawPath {
        let env = environment ?? currentEnvironment()
        #if canImport(Darwin)
            return RawPath(home(env) + "/Library/Caches")
        #else
            if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                let resolved = RawPath(xdg).canonical
                let homeResolved = RawPath(home(env)).canonical
                if resolved != RawPath("/") && resolved != homeResolved { return RawPath(xdg) }
            }
            return RawPath(home(env) + "/.cache")
        #endif
    }

    package static func home(_ env: [String: String]) -> String {
        if let home = env["HOME"], !home.isEmpty { return home }
        return Sys.passwordHome() ?? "/"
    }

    package static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for key in ["XDG_CACHE_HOME", "HOME"] {
            if let value = Sys.environment(key) { result[key] = value }
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
