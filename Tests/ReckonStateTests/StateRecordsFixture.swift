import ReckonTestSupport

/// The conformance suite's records: the samples every state test shares.
typealias StateRecordsFixture = StateSamples
