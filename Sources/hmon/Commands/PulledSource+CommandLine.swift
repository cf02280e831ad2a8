import Foundation
import HealthCore
import HealthConnectors
import HMonCommandLine

/// What the command line does with any pulled source's links, whichever the source: asked of each source
/// of `PulledSources.all` in turn, without naming it.
extension PulledSource {
    static var linkText: PulledLinkText<Self> { PulledLinkText() }
    /// The environment variable that may hold the client secret.
    static var secretVariable: String { linkText.secretVariable }
    /// `hmon serve`'s option for the minutes between two reads.
    static var pollOption: String { linkText.pollOption }

    /// Whether the link's file holds tokens: the person finished `hmon link add KIND`.
    static func isAuthorized(linkID: String, paths: HMonPaths) -> Bool {
        (try? PulledLinkFiles<Link>(paths: paths).load(linkID: linkID))?.tokens != nil
    }

    /// Deletes the link's file (its client secret and tokens), if this source has one by that id.
    static func deleteLinkFile(linkID: String, paths: HMonPaths) {
        PulledLinkFiles<Link>(paths: paths).delete(linkID: linkID)
    }

    /// What `hmon link list` adds to the line of a link of this source.
    static func listStatus(linkID: String, paths: HMonPaths) -> String {
        linkText.listStatus(authorized: isAuthorized(linkID: linkID, paths: paths))
    }
}
