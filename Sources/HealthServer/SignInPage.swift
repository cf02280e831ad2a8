import Foundation

/// The small HTML sign-in form `GET /authorize` serves: no scripts, no external assets, every value escaped.
/// The OAuth parameters ride along as hidden fields so `POST /authorize` receives them with the credentials.
enum SignInPage {
    static func render(parameters: [(String, String)], userName: String = "", problem: String? = nil) -> String {
        let hidden = parameters.map { name, value in
            #"<input type="hidden" name="\#(escape(name))" value="\#(escape(value))">"#
        }.joined(separator: "\n      ")
        let problemLine = problem.map { #"<p class="problem" role="alert">\#(escape($0))</p>"# } ?? ""
        return """
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <title>Sign in to hmon</title>
          <style>
            body { font-family: system-ui, sans-serif; max-width: 22rem; margin: 4rem auto; padding: 0 1rem; }
            label { display: block; margin-top: 1rem; }
            input[type=text], input[type=password] { width: 100%; padding: .4rem; box-sizing: border-box; }
            button { margin-top: 1.5rem; padding: .5rem 1.5rem; }
            .problem { color: #b00020; }
          </style>
        </head>
        <body>
          <h1>Sign in to hmon</h1>
          \(problemLine)
          <form method="post" action="/authorize">
              \(hidden)
            <label>User name <input type="text" name="username" value="\(escape(userName))" autocomplete="username" required autofocus></label>
            <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
            <button type="submit">Sign in</button>
          </form>
        </body>
        </html>
        """
    }

    /// Escapes text for HTML element content and double- or single-quoted attribute values, scalar by
    /// scalar: a quote followed by a combining mark is one Swift `Character` that equals no quote, and
    /// escaping by character let `"\u{301}` close an attribute.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
