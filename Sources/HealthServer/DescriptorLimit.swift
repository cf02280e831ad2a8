#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open file descriptors (RLIMIT_NOFILE). Every connection is a descriptor; the
/// usual soft limit (1024, or whatever the shell set) is far below what the kernel allows, so the server
/// raises it to the hard limit when it starts, and keeps its connection cap below it.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one and returns the soft limit in force afterwards (unchanged if
    /// the kernel refused).
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return clamp(limit.rlim_cur)
    }

    /// The soft limit in force now.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        return clamp(limit.rlim_cur)
    }

    /// Unlimited (RLIM_INFINITY, all bits set) and anything past Int32 read as Int32.max.
    private static func clamp(_ value: rlim_t) -> Int {
        value > rlim_t(Int32.max) ? Int(Int32.max) : Int(value)
    }

    #if os(Linux)
    private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
    #else
    private static var resource: Int32 { RLIMIT_NOFILE }
    #endif
}
