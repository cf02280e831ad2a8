import Foundation
import Testing
@testable import Terminal

@Suite struct ThemeTests {
    let themesDirectory = ThemeCatalog.sourceThemesDirectory

    @Test func everyBundledThemeLoadsAndSetsEveryRole() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: themesDirectory).filter { $0.hasSuffix(".theme") }
        #expect(files.count >= 6)
        for file in files {
            let path = themesDirectory + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            // Parsed without the default as a fallback, so a role missing from the file would show.
            let theme = try Theme.parse(text, name: file, file: path, fallback: Theme(name: "none", colors: [:], fallback: nil))
            #expect(Set(theme.colors.keys) == Set(Role.allCases), "\(file) lacks roles")
        }
    }

    @Test func theDefaultThemeFileMatchesTheCompiledInDefault() throws {
        let theme = try ThemeCatalog.load(path: themesDirectory + "/default.theme", name: "default")
        #expect(theme == Theme.builtInDefault)
    }

    @Test func missingRolesComeFromTheDefaultTheme() throws {
        let theme = try Theme.parse("# only one\nbad = \"#ff0000\"\n", name: "t", file: "t.theme")
        #expect(theme[.bad] == RGB(255, 0, 0))
        #expect(theme[.text] == Theme.builtInDefault[.text])
    }

    @Test func btopStyleLinesAndTrailingCommentsAreAccepted() throws {
        let theme = try Theme.parse("""
            theme[good]="#00ff00"
            status_bar = '#010203'   # the bar
            Accent = #0a0a0a # unquoted
            """, name: "t", file: "t.theme")
        #expect(theme[.good] == RGB(0, 255, 0))
        #expect(theme[.statusBar] == RGB(1, 2, 3))
        #expect(theme[.accent] == RGB(10, 10, 10))
    }

    @Test func aMalformedLineNamesTheFileAndLine() {
        let text = "# header\n\ntext = \"#ffffff\"\nthis is not a setting\n"
        #expect(throws: ThemeError(file: "Themes/nord.theme", line: 4,
                                   message: "expected role = \"#RRGGBB\", got this is not a setting")) {
            try Theme.parse(text, name: "nord", file: "Themes/nord.theme")
        }
    }

    @Test func aBadColourNamesTheRoleAndTheValue() {
        do {
            _ = try Theme.parse("good = \"#12345\"", name: "t", file: "my.theme")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "my.theme:1: colour for 'good' must be \"#RRGGBB\", got \"#12345\"")
        }
    }

    @Test func anUnknownRoleListsTheValidOnes() {
        do {
            _ = try Theme.parse("\nbg = \"#000000\"", name: "t", file: "my.theme")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("my.theme:2: unknown role 'bg'; valid roles: background, text, dim,"))
        }
    }

    @Test func aUserThemeShadowsTheBuiltInOneOfTheSameName() throws {
        let user = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: user) }
        try "bad = \"#123456\"\n".write(to: user.appendingPathComponent("nord.theme"), atomically: true, encoding: .utf8)
        try "good = \"#00ff00\"\n".write(to: user.appendingPathComponent("mine.theme"), atomically: true, encoding: .utf8)

        let catalog = ThemeCatalog(userDirectory: user.path, builtInDirectories: [themesDirectory])
        #expect(try catalog.theme(named: "nord")[.bad] == RGB(0x12, 0x34, 0x56))
        #expect(try catalog.theme(named: "gruvbox")[.background] == RGB(0x28, 0x28, 0x28))
        #expect(catalog.names.first == "default")
        #expect(catalog.names.contains("mine"))
        #expect(catalog.names == ["default"] + catalog.names.dropFirst().sorted())
        #expect(Set(catalog.names).isSuperset(of: ["light", "high-contrast", "mono", "nord", "gruvbox"]))
    }

    @Test func themesLoadByPathAndUnknownNamesListTheChoices() throws {
        let catalog = ThemeCatalog(userDirectory: nil, builtInDirectories: [themesDirectory])
        #expect(try catalog.theme(named: themesDirectory + "/light.theme").name == "light")
        #expect(try ThemeCatalog(userDirectory: nil, builtInDirectories: []).theme(named: "default") == .builtInDefault)
        do {
            _ = try catalog.theme(named: "solarised")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("no theme named 'solarised'; available: default, gruvbox"))
        }
    }

    @Test func theThemeChoiceFollowsFlagThenEnvironmentThenConfig() {
        #expect(ThemeCatalog.chosenTheme(flag: "nord", environment: ["HMON_THEME": "light"], configured: "mono") == "nord")
        #expect(ThemeCatalog.chosenTheme(flag: nil, environment: ["HMON_THEME": "light"], configured: "mono") == "light")
        #expect(ThemeCatalog.chosenTheme(flag: nil, environment: [:], configured: "mono") == "mono")
        #expect(ThemeCatalog.chosenTheme(flag: nil, environment: [:], configured: nil) == "default")
    }
}
