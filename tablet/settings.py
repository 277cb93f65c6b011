"""What a tablet remembers of itself between starts: its language, four colours, and the
kiosk's exit PIN (its hash), in ``tablet.json`` beside the device's credentials
(:func:`wire.pairing.config_path`: ``$TENACE_DEVICE_CONFIG`` or
``~/.config/tenace/device.json``; the folder ``$TENACE_CONFIG`` names, when set, holds both).

The language is chosen once per device: ``--language`` (kept), else the one kept, else the
system's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``it_IT.UTF-8`` is Italian), else English.
Never French unasked. A file that cannot be read is logged and the defaults are used: a
tablet always starts.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from tablet.i18n import LANGUAGES

__all__ = ["SETTINGS_NAME", "TabletSettings", "settings_path", "system_language"]

log = logging.getLogger(__name__)

SETTINGS_NAME = "tablet.json"
CONFIG_DIR_ENV = "TENACE_CONFIG"


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The first of LC_ALL, LC_MESSAGES, LANG the tablet speaks (``fr_FR.UTF-8`` -> ``fr``);
    English when none does (``C``, ``POSIX``, ``de_DE``)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        code = value.split(".")[0].split("_")[0].split("@")[0].lower()
        if code in LANGUAGES:
            return code
        if value:      # the first one set decides, as in POSIX
            break
    return "en"


def settings_path(device_config: Path | str | None = None) -> Path:
    """``tablet.json`` in ``$TENACE_CONFIG`` when set, else beside the device's config file."""
    folder = os.environ.get(CONFIG_DIR_ENV)
    if folder:
        return Path(folder).expanduser() / SETTINGS_NAME
    from wire.pairing import config_path
    return config_path(device_config).expanduser().parent / SETTINGS_NAME


def _pin_hash(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), 100_000).hex()


@dataclass(frozen=True, slots=True)
class TabletSettings:
    """``TabletSettings.load(path)``; ``settings.with_language("it").save(path)``."""

    language: str | None = None       # None: never chosen (the system's is used)
    four_colour: bool = False
    exit_pin_salt: str = ""
    exit_pin_hash: str = ""

    @classmethod
    def load(cls, path: Path) -> TabletSettings:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as err:
            log.warning("%s: unreadable (%s); the tablet's defaults are used", path, err)
            return cls()
        if not isinstance(data, dict):
            log.warning("%s: not a JSON object; the tablet's defaults are used", path)
            return cls()
        language = data.get("language")
        if language is not None and language not in LANGUAGES:
            log.warning("%s: language %r is not one of %s; ignored", path, language,
                        ", ".join(LANGUAGES))
            language = None
        salt, digest = data.get("exit_pin_salt", ""), data.get("exit_pin_hash", "")
        if not (isinstance(salt, str) and isinstance(digest, str)):
            salt = digest = ""
        return cls(language, bool(data.get("four_colour", False)), salt, digest)

    def save(self, path: Path) -> bool:
        """Write the file (0600, its folder made 0700); a failure is logged, not raised
        (False)."""
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"version": 1, **asdict(self)}, out, indent=1)
            os.replace(tmp, path)
        except OSError as err:
            log.warning("could not keep the tablet's settings in %s: %s", path, err)
            return False
        return True

    def language_for(self, asked: str | None = None,
                     environ: Mapping[str, str] | None = None) -> str:
        """The language to start in: ``asked`` (``--language``), else the one kept, else the
        system's, else English."""
        return asked or self.language or system_language(environ)

    def with_language(self, language: str) -> TabletSettings:
        return replace(self, language=language)

    def with_four_colour(self, on: bool) -> TabletSettings:
        return replace(self, four_colour=on)

    def with_exit_pin(self, pin: str) -> TabletSettings:
        if not (4 <= len(pin) <= 12 and pin.isdigit()):
            raise ValueError("the kiosk's exit PIN is 4 to 12 digits")
        salt = secrets.token_hex(16)
        return replace(self, exit_pin_salt=salt, exit_pin_hash=_pin_hash(pin, salt))

    @property
    def has_exit_pin(self) -> bool:
        return bool(self.exit_pin_hash)

    def exit_pin_matches(self, pin: str) -> bool:
        if not self.has_exit_pin:
            return False
        try:
            return hmac.compare_digest(_pin_hash(pin, self.exit_pin_salt), self.exit_pin_hash)
        except ValueError:      # a damaged salt
            return False
