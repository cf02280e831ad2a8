import Foundation
import HealthCore
import HealthModel
import Hummingbird

/// Exist's simple token: `POST /api/2/auth/simple-token/` (and `/api/1/…`, the path Exist's docs show)
/// with `username` and `password`, form-encoded as the docs' curl sends them or as JSON, answers
/// `{"token": "…"}`: a read-only personal token that does not expire, as `hmon token add --read-only` makes.
///
/// hmon keeps only a token's hash, so it cannot hand back the token it made last time as exist.io does:
/// each call makes a new one, and the earlier ones keep working until revoked (`hmon token list|revoke`).
struct ExistSimpleTokenRoute: Sendable {
    let store: any TokenStore
    let signIn: PasswordSignIn

    /// The label the tokens made here carry in `hmon token list`.
    static let label = "Exist simple token"

    func add(to router: Router<ServerContext>) {
        for version in ["1", "2"] {
            router.post("api/\(version)/auth/simple-token") { request, context in
                try await simpleToken(request, from: context.remoteAddress)
            }
        }
    }

    private func simpleToken(_ request: Request, from address: String) async throws -> Response {
        let fields = try await credentials(request)
        guard let name = fields["username"], !name.isEmpty else { throw APIError.validation("username", "is required") }
        guard let password = fields["password"], !password.isEmpty else { throw APIError.validation("password", "is required") }
        switch try await signIn.check(name: name, password: password, from: address) {
        case .signedIn(let user):
            let (_, token) = try await store.createPersonalToken(userID: user.id, label: Self.label, now: Date())
            return ExistJSON.response(["token": token])
        case .wrongPassword:
            // Django REST framework's answer to bad credentials, which Exist's clients expect.
            throw APIError(.badRequest, code: 400, message: "Unable to log in with provided credentials.")
        case .throttled(let seconds):
            throw APIError.tryLater(.tooManyRequests, seconds: seconds,
                                    message: "Too many failed sign-ins for this account: try again in \(OAuthRoutes.duration(seconds))")
        case .busy(let why):
            throw APIError.tryLater(.serviceUnavailable, seconds: 1, message: "\(why): try again in a moment")
        }
    }

    /// The form's fields, or a JSON object's string fields.
    private func credentials(_ request: Request) async throws -> [String: String] {
        if request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true {
            let body = try await RequestInput.jsonBytes(request)
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw APIError.validation("body", "must be a JSON object with username and password")
            }
            return object.compactMapValues { $0 as? String }
        }
        return try RequestInput.formFields(try await RequestInput.bytes(request))
    }
}
