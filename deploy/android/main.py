"""The players' tablet on Android: python-for-android runs this file (buildozer.spec,
docs/android.md).

It starts the same app as ``tenace tablet`` (tablet/app.py) with the Android build's
settings: full screen, the screen's own density (Kivy reads it from Android; a test sets
``KIVY_METRICS_DENSITY`` to play a 10-inch tablet under Xvfb), the device's files in the
app's private folder (``ANDROID_PRIVATE``: the credentials ``device.json`` and the
tablet's settings ``tablet.json``, see tablet/settings.py), and none of the desktop's
modules (pyscard, pyserial, Xlib, the hub): only bridgecore, wire and tablet are in the APK.

Not paired yet, it opens the pairing screen (tablet/ui_pairing.py): the code the console's
Devices page shows, or the text of its QR code, and the console's address.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def device_folder() -> Path:
    """Where the device keeps its credentials and settings: the app's private folder on
    Android, ``~/.config/tenace`` elsewhere; ``TENACE_CONFIG`` when set."""
    chosen = os.environ.get("TENACE_CONFIG")
    if chosen:
        return Path(chosen)
    private = os.environ.get("ANDROID_PRIVATE")   # python-for-android: the app's files
    base = Path(private) if private else Path.home() / ".config"
    return base / "tenace"


def main() -> int:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    folder = device_folder()
    os.environ["TENACE_CONFIG"] = str(folder)
    config = os.environ.setdefault("TENACE_DEVICE_CONFIG", str(folder / "device.json"))
    args = ["--fullscreen", "--device-config", config]
    if not Path(config).exists():
        from tablet.ui_pairing import run_pairing
        if not run_pairing(Path(config)):
            return 0          # closed without pairing
    from tablet.app import main as tablet
    return tablet(args)


if __name__ == "__main__":
    sys.exit(main())
