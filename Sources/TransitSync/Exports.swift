// The wire types (SyncTarget, SyncAction, SyncRecord...) are part of this library's API.
@_exported import SyncFormat
