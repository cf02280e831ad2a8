import HealthModel
/// Runs one slow password computation (a scrypt check) and returns its verdict. The server passes one
/// that queues it on a small pool of its own threads, so sign-ins never take the threads that answer
/// other requests; the default runs it where it is called. Either engine's `authenticate` takes it.
public typealias PasswordCheckRunner = @Sendable (_ check: @escaping @Sendable () -> Bool) async throws -> Bool
