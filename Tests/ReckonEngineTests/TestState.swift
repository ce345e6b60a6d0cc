import ReckonTestSupport

/// The engine tests' records and temporary state databases: the shared samples.
typealias TestState = StateSamples
