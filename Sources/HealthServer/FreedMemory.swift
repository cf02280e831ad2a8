#if canImport(Glibc)
import Glibc
#endif

/// Hands the pages a large request freed back to the system. glibc's allocator keeps what is freed in its
/// arenas for the next allocation, and gives back only what sits at the top of a heap: after a 32 MB Health
/// Connect batch the server stayed hundreds of megabytes larger than it needs to be until it was restarted.
/// `malloc_trim(0)` releases every free page of every arena; it walks them, so it runs on a queue of its
/// own, after the request, and only after a body large enough to have made it worth it.
enum FreedMemory {
    /// A request body at least this large is followed by a trim.
    static let worthGivingBack = 1 << 20

    private static let executor = BlockingWorkExecutor(label: "hmon.freed-memory")

    /// Starts a trim on its queue; returns at once.
    static func giveBackSoon() {
        Task(executorPreference: executor) { giveBack() }
    }

    static func giveBack() {
        #if canImport(Glibc)
        // Looked up rather than declared: <malloc.h> is not in Swift's Glibc module, and another C library
        // (musl) has no such call.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
