import ReckonTestSupport

/// The SQLite state's tests' records and temporary state files: the shared samples.
typealias TestState = StateSamples
