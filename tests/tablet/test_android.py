"""The Android build (deploy/android/: buildozer.spec, main.py, stage; docs/android.md),
checked as far as a Linux machine can: every requirement of the spec is a
python-for-android recipe or a pure-Python distribution (no compiled file in it); every
third-party module the APK's packages import is required; the staged folder holds the
tablet's packages only; and the staged main.py starts the real tablet under Xvfb with the
Android build's settings (full screen, a 10-inch tablet's density 1.5 at 1920x1200) and
goes online, without importing any desktop-only module."""

from __future__ import annotations

import ast
import configparser
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

from hub.broker import EmbeddedBroker
from wire.mqtt import MqttClient

REPO = Path(__file__).resolve().parents[2]
ANDROID = REPO / "deploy" / "android"
RECIPES = {line.strip().lower() for line in
           (REPO / "tests" / "data" / "p4a_recipes.txt").read_text().splitlines()
           if line.strip() and not line.startswith("#")}
PACKAGES = ("bridgecore", "wire", "tablet")     # what deploy/android/stage puts in the APK
# Modules a desktop has and a tablet must not load: the card readers' drivers, X11, the
# hub and its web stack, the command line.
DESKTOP_ONLY = ("smartcard", "serial", "Xlib", "hub", "firmware_bridge", "tenace", "amqtt",
                "aiohttp", "argon2", "cryptography", "segno", "endplay")
# module imported -> the requirement that brings it
PROVIDERS = {"kivy": "kivy", "msgspec": "msgspec", "paho": "paho-mqtt", "jnius": "pyjnius",
             "android": "android", "babel": "babel"}
LAZY_OPTIONAL = {"endplay"}   # bridgecore/doubledummy.py, imported lazily; not on a tablet


def requirements() -> dict[str, str]:
    spec = configparser.ConfigParser()
    spec.read(ANDROID / "buildozer.spec")
    out = {}
    for item in spec["app"]["requirements"].split(","):
        name, _, version = item.strip().partition("==")
        out[name.lower()] = version
    return out


def _compiled(distribution: str) -> list[str]:
    files = importlib.metadata.distribution(distribution).files or []
    return [str(f) for f in files if str(f).endswith((".so", ".pyd", ".dylib"))]


def test_every_requirement_is_a_recipe_or_pure_python() -> None:
    wanted = requirements()
    assert {"python3", "kivy", "msgspec", "paho-mqtt", "sqlite3", "openssl"} <= set(wanted)
    for name, version in wanted.items():
        if name in RECIPES:
            continue
        # Not a recipe: p4a installs it with pip, which builds no C extension for Android.
        assert _compiled(name) == [], f"{name} has a C extension and no p4a recipe"
        if version:
            assert importlib.metadata.version(name) == version, name
    assert _compiled("msgspec") and "msgspec" in RECIPES    # a C extension: its recipe
    assert requirements()["kivy"] == importlib.metadata.version("kivy")


def _third_party_imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module] if isinstance(node, ast.ImportFrom) and node.module \
                    and not node.level else []
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in PACKAGES:
                        found.setdefault(top, set()).add(str(path.relative_to(REPO)))
    return found


def test_every_module_the_apks_packages_import_is_required() -> None:
    wanted = requirements()
    imports = _third_party_imports()
    assert {"kivy", "msgspec", "paho"} <= set(imports)
    for module, where in imports.items():
        if module in LAZY_OPTIONAL:
            continue
        assert module in PROVIDERS, f"{module} (imported by {sorted(where)}) has no requirement"
        assert PROVIDERS[module] in wanted, module
    assert not set(imports) & (set(DESKTOP_ONLY) - LAZY_OPTIONAL)


def stage(folder: Path) -> Path:
    out = subprocess.run(["bash", str(ANDROID / "stage"), str(folder)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return folder


def test_the_staged_folder_holds_the_tablets_packages_only(tmp_path: Path) -> None:
    staged = stage(tmp_path / "android")
    assert sorted(p.name for p in staged.iterdir()) == [
        "bridgecore", "buildozer.spec", "main.py", "tablet", "wire"]
    assert (staged / "tablet" / "app.py").exists() and (staged / "wire" / "views.py").exists()
    assert not list(staged.rglob("__pycache__"))


PROBE = """
import json, os, runpy, sys
from kivy.clock import Clock
TRIES = []

def probe(_dt):
    from kivy.app import App
    from kivy.core.window import Window
    from kivy.metrics import Metrics
    app = App.get_running_app()
    tablet = getattr(app, "tablet", None)
    pairing = type(app).__name__ == "PairingApp"
    waiting = (tablet is None or tablet.presenter.model.connection != "online") \
        if not pairing else list(Window.size) == [800, 600]   # full screen not applied yet
    TRIES.append(1)
    if waiting and len(TRIES) < 300:
        Clock.schedule_once(probe, 0.2)
        return
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump({"modules": sorted(sys.modules), "size": list(Window.size),
                   "fullscreen": Window.fullscreen, "density": Metrics.density,
                   "app": type(app).__name__,
                   "bar_rows": None if pairing else tablet.bar.orientation,
                   "language": app.language if pairing else tablet.presenter.model.language},
                  out)
    app.stop()

Clock.schedule_once(probe, 0.5)
sys.argv = ["main.py"]
runpy.run_path("main.py", run_name="__main__")
"""


def test_the_staged_app_starts_with_the_android_settings_under_xvfb(
        embedded_broker: EmbeddedBroker, tmp_path: Path, keyring: object) -> None:
    staged = stage(tmp_path / "android")
    private = tmp_path / "private"          # the app's private folder (ANDROID_PRIVATE)
    folder = private / "tenace"
    folder.mkdir(parents=True)
    credentials = keyring.issue("A1-W")  # type: ignore[attr-defined]
    (folder / "device.json").write_text(json.dumps({
        "version": 1, "hub": "http://127.0.0.1:1", "account": credentials.username,
        "password": credentials.password, "role": "seat", "table": "A1", "seat": "W",
        "broker": embedded_broker.url, "first_seq": 0, "paired_at": 0.0}))
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1200x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as displayfd:
        display = f":{displayfd.readline().strip()}"
    watcher = MqttClient(embedded_broker.url, "director", clean_session=True, start=False)
    watcher.subscribe("tenace/v1/t/A1/dev/A1-W/status", 1, wait=False)
    watcher.start().wait_connected()
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_VIDEODRIVER", "TENACE_CONFIG", "TENACE_DEVICE_CONFIG",
                        "TENACE_MQTT_KEYRING")}
    env.update(DISPLAY=display, ANDROID_PRIVATE=str(private), KIVY_METRICS_DENSITY="1.5",
               KIVY_HOME=str(tmp_path / "kivy"), PROBE_OUT=str(tmp_path / "probe.json"),
               LANG="it_IT.UTF-8", PYTHONPATH=str(staged))
    try:
        out = subprocess.run([sys.executable, "-c", PROBE], cwd=staged, env=env,
                             capture_output=True, text=True, timeout=180)
        assert out.returncode == 0, out.stderr[-3000:]
        probe = json.loads((tmp_path / "probe.json").read_text())
        status = json.loads(watcher.messages.get(timeout=30).payload)
    finally:
        watcher.close()
        xvfb.terminate()
        xvfb.wait(10)
    assert status["seat"] == "W"
    assert probe["app"] == "TabletApp" and probe["fullscreen"] == "auto"
    assert probe["size"] == [1920, 1200] and probe["density"] == 1.5
    assert probe["bar_rows"] == "horizontal"          # 1280 dp wide: one row
    assert probe["language"] == "it"                   # the system's, never French unasked
    loaded = {m.split(".")[0] for m in probe["modules"]}
    assert not loaded & set(DESKTOP_ONLY), loaded & set(DESKTOP_ONLY)
    assert (folder / "tablet.json").exists() is False   # nothing chosen on the tablet yet


def test_an_unpaired_tablet_opens_the_pairing_screen_with_the_same_settings(
        tmp_path: Path) -> None:
    """Not paired yet: main.py opens the pairing screen (tablet/ui_pairing.py), full screen,
    in the system's language, still without a desktop module."""
    staged = stage(tmp_path / "android")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as displayfd:
        display = f":{displayfd.readline().strip()}"
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_VIDEODRIVER", "TENACE_CONFIG", "TENACE_DEVICE_CONFIG")}
    env.update(DISPLAY=display, ANDROID_PRIVATE=str(tmp_path / "private"),
               KIVY_HOME=str(tmp_path / "kivy"), PROBE_OUT=str(tmp_path / "probe.json"),
               LANG="fr_FR.UTF-8", PYTHONPATH=str(staged))
    try:
        out = subprocess.run([sys.executable, "-c", PROBE], cwd=staged, env=env,
                             capture_output=True, text=True, timeout=180)
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    assert out.returncode == 0, out.stderr[-3000:]
    probe = json.loads((tmp_path / "probe.json").read_text())
    assert probe["app"] == "PairingApp" and probe["fullscreen"] == "auto"
    assert probe["size"] == [1280, 800] and probe["language"] == "fr"
    loaded = {m.split(".")[0] for m in probe["modules"]}
    assert not loaded & set(DESKTOP_ONLY), loaded & set(DESKTOP_ONLY)
    assert not (tmp_path / "private" / "tenace" / "device.json").exists()
