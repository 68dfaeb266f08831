// The record type lives in its own module, so that the command-line tool reads records without linking the
// runtime's networking (FoundationNetworking and libcurl on Linux); the tracking status and the sleeper live in
// SkanCore, shared with SkanTracking. Apps that import this module see all three as part of it.
@_exported public import SkanAppleAds
@_exported public import SkanCore
