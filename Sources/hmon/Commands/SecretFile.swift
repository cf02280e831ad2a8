import Foundation
import HMonCommandLine

/// A secret read from a file named on the command line, never from an argument (a process list shows those).
enum SecretFile {
    /// The file's first line, trimmed; warns when others can read the file.
    static func firstLine(_ path: String) throws -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandError("cannot read the secret file \(path): check the path and that it is readable")
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            FileHandle.standardError.write(Data("hmon: warning: \(TerminalText.escaped(path)) can be read by others: chmod 600 it\n".utf8))
        }
        let secret = String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty else { throw CommandError("the secret file \(path) is empty: put the secret alone on its first line") }
        return secret
    }
}
