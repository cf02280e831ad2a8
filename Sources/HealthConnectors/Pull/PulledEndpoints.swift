import Foundation

/// Where a pulled source is: its API, and the pages the person opens to allow hmon (Withings' account
/// pages, say). The only thing that differs between the real service and the tests' fixture
/// server, so each is an address `hmon link add` and `hmon serve` take in hidden options.
public protocol PulledEndpoints: Sendable {
    /// The real service.
    static var real: Self { get }
    /// What the pages are called in their hidden option, `--KIND-PAGES-url` ("account").
    static var pagesName: String { get }

    var api: URL { get }
    var pages: URL { get }
    init(api: URL, pages: URL)

    /// The page the person opens to let hmon read their data.
    func authorizeURL(clientID: String, redirectURI: String, state: String) -> URL
}
