"""hub: application package (to be built on bridgecore)."""
