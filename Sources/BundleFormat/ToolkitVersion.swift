/// The toolkit's release, printed by `--version` on both command lines and recorded in
/// every bundle's metadata (`compiler_version`).
package enum ToolkitVersion {
    package static let current = "0.2.0"
}
