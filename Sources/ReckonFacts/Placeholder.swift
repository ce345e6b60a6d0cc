// ReckonFacts
