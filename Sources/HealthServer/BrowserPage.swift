import Hummingbird
import NIOCore

/// The page a person's browser lands on after a link's step (a Welltory measurement saved, an OAuth link
/// made): a title and one sentence, escaped, and never cached.
enum BrowserPage {
    static func response(_ status: HTTPResponse.Status, _ title: String, _ message: String) -> Response {
        let text = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>hmon: \(SignInPage.escape(title))</title></head>
            <body><h1>\(SignInPage.escape(title))</h1><p>\(SignInPage.escape(message))</p></body></html>
            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
