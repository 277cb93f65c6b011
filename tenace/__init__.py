"""The ``tenace`` command and the glue between bridgecore and the applications."""
