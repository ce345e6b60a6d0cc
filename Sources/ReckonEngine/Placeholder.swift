// ReckonEngine
