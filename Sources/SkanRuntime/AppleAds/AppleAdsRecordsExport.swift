// The record type lives in its own module, so that the command-line tool reads records without linking the
// runtime's networking (FoundationNetworking and libcurl on Linux). Apps that import SkanRuntime see it as
// part of the runtime.
@_exported import SkanAppleAds
