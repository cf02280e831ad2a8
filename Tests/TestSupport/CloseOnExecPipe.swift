import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pipe(2)` whose two ends close in any program this process starts. A plain pipe's ends are inherited
/// by every child spawned meanwhile from another thread: a long-lived one (`hmon serve`) then holds the
/// write end of another child's output open, and reading that output to its end never ends. The child
/// meant to use an end gets it through posix_spawn's dup2, which clears the flag on the copy.
/// (Swift's Glibc module does not offer `pipe2`: the flag is set right after, under `spawning`, the lock
/// every spawn of the tests takes, so no child can start between the two calls.)
func closeOnExecPipe(_ fds: inout [Int32]) -> Int32 {
    spawning.withLock {
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return 0
    }
}

/// Held while a pipe is made and while a child is spawned.
let spawning = NSLock()
