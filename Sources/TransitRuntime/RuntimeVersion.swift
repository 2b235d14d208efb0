import BundleFormat

extension TransitBundle {
    /// The toolkit release this runtime belongs to (what `transit-query --version` prints).
    public static var runtimeVersion: String { ToolkitVersion.current }
}
