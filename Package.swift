// swift-tools-version:6.0
import PackageDescription

// Layers (see docs/architecture.md): arrows point from importer to imported, never back up.
//   hmon -> HMonTUI -> HealthViewModels -> HealthCore -> HealthModel -> CheckedNumbers
//   hmon -> HealthServer -> HealthFormats | SAMIContract | HealthConnectors -> HealthCore
//   hmon -> HMonCommandLine -> SQLiteStorage | PostgresStorage | RemoteClient -> HealthFormats | SAMIContract | HealthConnectors -> HealthCore
//   HMonTUI -> Terminal -> CNcurses
// The screens, the view models, the core and the server link no database driver and no HTTP client:
// the executable wires the engines in (PackageLayeringTests reads this file and checks it).
#if os(Linux)
import Glibc
#endif

/// How a release `hmon` is linked on Linux, for its start-up time and memory (see
/// Benchmarks/dashboard-bench.sh; build it with `swift build -c release --static-swift-stdlib`):
/// - lld with packed relative relocations (RELR): the position-independent binary keeps ASLR, and its
///   ~130,000 relocations take 25 KB instead of a 3 MB table that every launch read. RELR needs
///   glibc 2.36, so older C libraries get the classic table. Linking without PIE (`-no-pie`) would drop
///   the relocations altogether: measured 430 fewer page faults and 1.7 ms less CPU per
///   launch, but the code of a binary that also serves HTTP would sit at a fixed address; not taken.
/// - no `--export-dynamic` (the static Swift runtime asks for it): nothing looks our symbols up by
///   name, and exporting all of them made every shared library's symbol lookup search a 3 MB table.
/// Debug builds keep the defaults, so the edit-build-test loop is unchanged.
let releaseLinking: [LinkerSetting] = {
    #if os(Linux)
    var flags = ["-use-ld=lld", "-Xlinker", "--no-export-dynamic"]
    var text = [CChar](repeating: 0, count: 64)  // "glibc 2.36"
    _ = confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count)
    let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let version = name.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    if version.count >= 2, (version[0], version[1]) >= (2, 36) {
        flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
    }
    return [.unsafeFlags(flags, .when(platforms: [.linux], configuration: .release))]
    #else
    return []
    #endif
}()

/// Where ncursesw's headers and library are. On Linux (Debian's libncurses-dev) they sit on the default
/// paths: `<ncursesw/curses.h>` and libncursesw.so, a linker script that also pulls in libtinfo, so
/// `module.modulemap`'s `link "ncursesw"` is all it takes. Asking pkg-config there only earned a warning
/// per build ("prohibited flag(s): -D_DEFAULT_SOURCE, -D_XOPEN_SOURCE=600": SwiftPM drops -D flags of
/// system libraries; `shim.h` defines what they would). Elsewhere (Homebrew's keg-only ncurses on macOS)
/// pkg-config gives the include and library folders.
let ncursesPkgConfig: String? = {
    #if os(Linux)
    return nil
    #else
    return "ncursesw"
    #endif
}()

let package = Package(
    name: "hmon",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hmon", targets: ["hmon"]),
        .executable(name: "hmon-mcp", targets: ["hmon-mcp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CNcurses",
            path: "Sources/CNcurses",
            pkgConfig: ncursesPkgConfig,
            providers: [.apt(["libncurses-dev"])]
        ),
        .systemLibrary(name: "CSQLiteSettings", path: "Sources/CSQLiteSettings", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlibChecksum", path: "Sources/CZlibChecksum", providers: [.apt(["zlib1g-dev"])]),
        // The one checked Double-to-integer conversion every target uses: no stored number can trap.
        .target(name: "CheckedNumbers"),
        .target(
            name: "Terminal",
            dependencies: ["CNcurses", "CheckedNumbers"]
        ),
        // The model: readings, units, profiles, the rules every reading meets, and the pure math (energy, the
        // weight trend, HRV, the insights' statistics). Foundation alone.
        .target(name: "HealthModel", dependencies: ["CheckedNumbers"]),
        // The storage seam (role-sized protocols, the rules both engines apply, what an import reports) and
        // the service over any store. No database driver, no HTTP client and no file parser.
        .target(
            name: "HealthCore",
            dependencies: [
                "HealthModel", "CheckedNumbers",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The file formats hmon reads and writes: Apple Health exports, CSVs of scales, Health Auto Export's
        // JSON, hmon's own export. Streaming parsers that hand readings on; they write nothing themselves.
        .target(
            name: "HealthFormats",
            dependencies: [
                "HealthCore", "HealthModel", "CheckedNumbers", "CZlibChecksum",
                // SQLite's C interface (no GRDB, which stays the store's): Gadgetbridge's exported database.
                "CSQLiteSettings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The SAMI REST contract's JSON, shared by `hmon serve` and the remote client so they cannot drift.
        .target(
            name: "SAMIContract",
            dependencies: ["HealthCore", "HealthModel", "CheckedNumbers", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The connectors to outside services that hmon pulls from (Withings), beside the server that runs them.
        .target(
            name: "HealthConnectors",
            dependencies: ["HealthCore", "HealthModel", "CheckedNumbers", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The embedded engine: SQLite through GRDB (all of hmon's GRDB code), the demo store.
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "HealthCore", "HealthFormats", "HealthModel", "CheckedNumbers", "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The shared engine: PostgreSQL through postgres-nio (all of hmon's postgres-nio code).
        .target(
            name: "PostgresStorage",
            dependencies: [
                "HealthCore", "HealthFormats", "HealthModel", "CheckedNumbers",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A SAMI-compatible server over HTTP as a HealthService, and `hmon exist push`'s client.
        .target(
            name: "RemoteClient",
            dependencies: [
                "HealthCore", "SAMIContract", "HealthConnectors", "HealthModel", "CheckedNumbers",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "HealthViewModels",
            dependencies: ["HealthCore", "HealthModel", "CheckedNumbers"]
        ),
        .target(
            name: "HMonTUI",
            dependencies: ["Terminal", "HealthViewModels", "HealthCore", "HealthModel", "CheckedNumbers",
                           .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // The command line's wording and store opening, as a library so tests can reach them. No TUI, no server.
        .target(
            name: "HMonCommandLine",
            dependencies: ["HealthCore", "HealthFormats", "HealthConnectors", "HealthModel", "CheckedNumbers", "SQLiteStorage", "PostgresStorage", "RemoteClient",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Alert rules over a person's figures (config.toml's [[alerts]]) and their delivery to ntfy or a webhook.
        .target(
            name: "HealthAlerts",
            dependencies: [
                "HealthCore", "HealthModel", "HealthConnectors",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // `hmon mcp`: the Model Context Protocol server over stdio, read-only, its tools and resources made by the
        // command line's own JSON producers and the server's views, so each figure has one producer.
        .target(
            name: "HMonMCP",
            dependencies: [
                "HMonCommandLine", "SAMIContract", "HealthCore", "HealthModel", "CheckedNumbers",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HealthServer",
            dependencies: [
                "HealthAlerts", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "CheckedNumbers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hmon",
            dependencies: [
                "HMonTUI", "HealthServer", "HealthAlerts", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "HMonCommandLine", "HealthViewModels", "Terminal", "CheckedNumbers",
                "SQLiteStorage", "PostgresStorage", "RemoteClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: releaseLinking
        ),
        // `hmon-mcp` (and `hmon mcp`, which runs it): a program of its own, so that `hmon` links no libcurl.
        .executableTarget(
            name: "hmon-mcp",
            dependencies: [
                "HMonMCP", "HMonCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking
        ),
        .executableTarget(
            name: "hmon-bench",
            dependencies: [
                "HealthCore", "HealthFormats", "HealthModel", "HealthViewModels", "HMonTUI", "Terminal", "CheckedNumbers", "SQLiteStorage",
                "RemoteClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking
        ),
        .executableTarget(name: "terminal-bench", dependencies: ["Terminal", "CNcurses"], path: "Benchmarks/TerminalBench"),
        // The fuzz targets (see Fuzz/fuzz.sh): the parts that read outside input, one entry point each.
        .target(name: "FuzzTargets", dependencies: ["HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "HealthServer", "HealthViewModels", "Terminal", "SQLiteStorage",
                                              "HMonCommandLine"],
                path: "Fuzz/Targets"),
        // libFuzzer's driver when built with -sanitize=fuzzer -D HMON_LIBFUZZER; otherwise it replays saved inputs.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "hmon-fuzz", dependencies: ["FuzzTargets", "CLibFuzzer"], path: "Fuzz/Driver"),
        // Finds the built hmon and drives a tmux terminal for the tests that run it; not part of any product.
        .target(name: "TestSupport", dependencies: ["HealthServer"], path: "Tests/TestSupport"),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "TestSupport"]),
        // The pure model's tests (trends, HRV, energy, insights, dates, rules): no storage driver, no server, no
        // HTTP client, so `swift test --filter HealthModelTests` builds and runs them in seconds.
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel", "CheckedNumbers", "ModelTestSupport"]),
        // What the model's tests and the store's share: a fixed calendar and dates written as local time.
        .target(name: "ModelTestSupport", path: "Tests/ModelTestSupport"),
        .testTarget(name: "HealthCoreTests", dependencies: ["ModelTestSupport", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "TestSupport", "CheckedNumbers",
                                                            "SQLiteStorage", "PostgresStorage", "RemoteClient",
                                                            .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "HealthViewModelsTests", dependencies: ["HealthViewModels", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "HealthServer", "TestSupport",
                                                                  "SQLiteStorage", "RemoteClient"]),
        .testTarget(
            name: "HMonTUITests",
            dependencies: ["HMonTUI", "Terminal", "HealthViewModels", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "HealthServer", "TestSupport",
                           "SQLiteStorage", "RemoteClient"],
            // The reviewed reference frames: read by #filePath from the sources, not bundled as resources.
            exclude: ["__Snapshots__"]
        ),
        .testTarget(name: "HealthServerTests", dependencies: [
            "HealthServer", "HealthAlerts", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "TestSupport", "SQLiteStorage", "PostgresStorage", "RemoteClient",
            "HMonCommandLine",
            // Only to write rows around the store's rules, as an older hmon or another program could.
            .product(name: "GRDB", package: "GRDB.swift"),
            // Only for fixtures a real hmon server cannot produce (a 5xx, a body that is not the contract's JSON).
            .product(name: "Hummingbird", package: "hummingbird"),
            // Only for a receiver that answers on an event loop's thread, not the test pool's (AlertReceiver).
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "EndToEndTests", dependencies: ["HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "TestSupport", "SQLiteStorage"]),
        .testTarget(name: "HMonCommandLineTests", dependencies: ["HMonCommandLine", "HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "SQLiteStorage", "PostgresStorage"]),
        // Every command's parse in process, as swift-argument-parser's own suite tests its parsing: usage
        // mistakes, help and validation without starting a process per case.
        .testTarget(name: "CommandParseTests", dependencies: ["hmon", "hmon-mcp", "HMonCommandLine"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets", "TestSupport"]),
        .testTarget(name: "ImportTests", dependencies: ["HealthCore", "HealthFormats", "SAMIContract", "HealthConnectors", "HealthModel", "TestSupport", "SQLiteStorage", "PostgresStorage",
                                                        .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz/fuzz.sh builds hmon-fuzz with HMON_FUZZ=1: hmon's own modules get libFuzzer's coverage and
// AddressSanitizer, its dependencies are built as in any debug build. Why not `-Xswiftc -sanitize=…` on the
// command line: that instruments every dependency too, so nothing of the fuzz build could be shared with the
// test build; this way CI builds the dependencies once for both (and coverage guides the fuzzer through
// hmon's code, where the inputs are read).
if Context.environment["HMON_FUZZ"] == "1" {
    for target in package.targets where target.type == .regular || target.type == .executable {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address"])]
        if target.name == "hmon-fuzz" {
            target.swiftSettings? += [.define("HMON_LIBFUZZER")]
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address"])]
        }
    }
}
