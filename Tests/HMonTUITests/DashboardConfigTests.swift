import Foundation
@testable import HMonTUI
import Testing

struct DashboardConfigTests {
    @Test func themeAndRefreshAreReadFromTheFile() throws {
        let config = try DashboardConfig.parse("# mine\ntheme = \"nord\"\nrefresh = 45\n", file: "config.toml")
        #expect(config == DashboardConfig(theme: "nord", refreshSeconds: 45))
    }

    @Test func aMissingFileMeansTheDefaults() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/config.toml")
        #expect(try DashboardConfig.load(from: missing) == DashboardConfig())
    }

    @Test func aFileThatIsThereButCannotBeReadIsAProblemNotTheDefaults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the file should be cannot be read by anyone, root included.
        let notAFile = folder.appendingPathComponent("config.toml")
        try FileManager.default.createDirectory(at: notAFile, withIntermediateDirectories: true)
        #expect {
            _ = try DashboardConfig.load(from: notAFile)
        } throws: { error in
            String(describing: error).hasPrefix("\(notAFile.path): cannot be read")
        }
        let latin1 = folder.appendingPathComponent("latin1.toml")
        // "café" saved as Latin-1: é is the lone byte E9, which is not UTF-8.
        try (Data("theme = \"caf".utf8) + [0xe9, 0x22]).write(to: latin1)
        #expect {
            _ = try DashboardConfig.load(from: latin1)
        } throws: { error in
            String(describing: error).contains("is not UTF-8 text")
        }
    }

    @Test func aBrokenFileNamesTheFileAndTheLine() {
        #expect {
            _ = try DashboardConfig.parse("theme = \"nord\"\nrefresh = = 3\n", file: "config.toml")
        } throws: { error in
            String(describing: error).hasPrefix("config.toml:2:")
        }
    }

    @Test func aRefreshBelowOneSecondIsRefusedWithTheFix() {
        #expect {
            _ = try DashboardConfig.parse("refresh = 0\n", file: "config.toml")
        } throws: { error in
            String(describing: error).contains("refresh = 30")
        }
    }

    @Test func mouseCanBeLeftToTheTerminalAndAnythingButABooleanIsRefused() throws {
        #expect(try DashboardConfig.parse("mouse = false\n", file: "config.toml").mouse == false)
        #expect(try DashboardConfig.parse("theme = \"nord\"\n", file: "config.toml").mouse == nil)
        #expect {
            _ = try DashboardConfig.parse("mouse = \"off\"\n", file: "config.toml")
        } throws: { error in
            String(describing: error).contains("mouse = false")
        }
    }

    /// Issue 11: T is kept for the next launch, in the person's own file, with their comments and lines kept.
    @Test func aThemeSavedByTKeepsTheRestOfTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hmon/config.toml")

        try DashboardConfig.save(theme: "nord", to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "theme = \"nord\"\n", "a missing file is made")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "written whole as every file hmon writes (AtomicFile): its owner's only")

        let mine = "# my settings\ntheme = \"default\"   # for the day\nrefresh = 45  # seconds\nmouse = false\n"
        try Data(mine.utf8).write(to: file)
        try DashboardConfig.save(theme: "gruvbox", to: file)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved == "# my settings\ntheme = \"gruvbox\"  # for the day\nrefresh = 45  # seconds\nmouse = false\n")
        #expect(try DashboardConfig.load(from: file) == DashboardConfig(theme: "gruvbox", refreshSeconds: 45, mouse: false))
    }

    @Test func aThemeLineIsAddedAboveTheFirstTableNotInsideIt() throws {
        let text = "refresh = 30\n\n[future]\ntheme = \"not this one\"\n"
        let saved = DashboardConfig.settingTheme("nord", in: text)
        #expect(saved == "refresh = 30\n\ntheme = \"nord\"\n[future]\ntheme = \"not this one\"\n")
    }
}
