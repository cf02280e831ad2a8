import Foundation
import HMonTUI
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
}
