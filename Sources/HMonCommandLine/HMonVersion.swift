/// The version `hmon --version` and `hmon-mcp --version` print, and the MCP server names itself with.
public enum HMonVersion {
    public static let current = "0.1.0"
}
