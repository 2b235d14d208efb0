import BundleFormat

extension TransitBundle {
    /// The toolkit release this runtime belongs to (what `transit-query --version` prints).
    public static var runtimeVersion: String { ToolkitVersion.current }
}

extension TransitBundle {
    /// The bundle schema version this runtime reads; a bundle of another version is refused
    /// when opened (a newer one with `TransitError.unsupportedSchemaVersion`).
    ///
    /// ```swift
    /// let readable = manifestSchemaVersion == TransitBundle.supportedSchemaVersion
    /// ```
    public static var supportedSchemaVersion: Int { BundleSchema.version }
}
