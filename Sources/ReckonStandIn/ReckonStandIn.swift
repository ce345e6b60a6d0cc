// A local App Store stand-in for tests and demos.
