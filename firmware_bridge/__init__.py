"""firmware_bridge: application package (to be built on bridgecore)."""
