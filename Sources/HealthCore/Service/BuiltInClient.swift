import Foundation
import HealthModel

/// The OAuth client that hmon itself signs in as: public (no secret), its redirect a URI no browser opens.
public enum BuiltInClient {
    public static let id = "hmon"
    public static let redirectURI = "hmon://signed-in"
}
