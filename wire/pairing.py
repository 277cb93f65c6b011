"""A device's side of pairing: redeem a one-time code with the hub, keep the credentials.

The director draws a code on the console's Devices page (hub.pairing); the device is given
the code (``K7QX-M2PD``) and the hub's console address, or the QR code's URI, which holds
both and the fingerprint of the club's certificate authority::

    tenace-pair:?hub=http://192.168.1.10:8080&code=K7QX-M2PD&ca=sha256:5f0c...

:func:`redeem` posts the code to the hub's ``POST /api/pair`` (docs/protocol.md, "Pairing";
standard library only: urllib, ssl) and returns a :class:`DeviceConfig`: the account and its
password, the broker URL, and the club's CA certificate when the broker has TLS. With a
fingerprint (from the URI, or given), the CA the hub sends must be the one the director's
screen showed: otherwise, or when no CA comes, pairing is refused (``ca_mismatch``), so a
phone posing as the hub on the club's network cannot hand the device its own authority.

:meth:`DeviceConfig.save` keeps it in the device's config file (default
``~/.config/tenace/device.json``, or ``$TENACE_DEVICE_CONFIG``; mode 0600) with the CA beside
it (``device-ca.crt``); :func:`load` reads it back for later runs, and
:meth:`DeviceConfig.broker_url` is the URL to connect with (credentials in it, ``?ca=``).

Errors: :class:`wire.errors.PairingFailed` (a ``WireError``) with a ``code``: the hub's
(``unknown_code``, ``expired``, ``used``, ``throttled``, ``malformed``, ``no_pairing``) or
this side's (``bad_code``, ``unreachable``, ``bad_answer``, ``ca_mismatch``, ``no_config``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import ssl
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from wire.errors import PairingFailed

__all__ = ["CONFIG_ENV", "DEFAULT_CONFIG", "DeviceConfig", "PairingFailed", "PairingRequest",
           "ca_fingerprint", "config_path", "load", "pair_or_load", "parse_pairing", "redeem",
           "write_private"]

CONFIG_ENV = "TENACE_DEVICE_CONFIG"
DEFAULT_CONFIG = Path("~/.config/tenace/device.json")
CA_NAME = "device-ca.crt"
URI_SCHEME = "tenace-pair"
_CODE = re.compile(r"^[2-9A-HJKMNP-TV-Z]{4}-?[2-9A-HJKMNP-TV-Z]{4}$")
_FINGERPRINT = re.compile(r"^sha256:[0-9a-f]{64}$")


@dataclass(frozen=True, slots=True)
class PairingRequest:
    """What a device needs to pair: the hub's console URL, the code, the CA's fingerprint."""

    hub: str
    code: str
    ca: str | None = None


def ca_fingerprint(pem: str | bytes) -> str:
    """``sha256:`` + the hex SHA-256 of the first certificate's DER encoding."""
    text = pem.decode() if isinstance(pem, bytes) else pem
    end = text.find("-----END CERTIFICATE-----")
    if end < 0:
        raise ValueError("no PEM certificate")
    der = ssl.PEM_cert_to_DER_cert(text[:end + 25])
    return "sha256:" + hashlib.sha256(der).hexdigest()


def _hub_url(text: str) -> str:
    """``http(s)://host:port`` (no path), from ``host:port`` or a URL."""
    url = text if "://" in text else f"http://{text}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PairingFailed("bad_code", f"--hub {text!r}: give the console's address, "
                                        "http://HOST:PORT")
    return f"{parts.scheme}://{parts.netloc}"


def parse_pairing(text: str, hub: str | None = None) -> PairingRequest:
    """A code (``K7QX-M2PD``, with ``hub`` the console's address) or a ``tenace-pair:`` URI
    (``hub`` then overrides the URI's); PairingFailed ``bad_code`` otherwise."""
    text = text.strip()
    fingerprint = None
    if text.lower().startswith(URI_SCHEME + ":"):
        query = parse_qs(text.split("?", 1)[1] if "?" in text else "", keep_blank_values=True)
        if any(len(v) != 1 for v in query.values()) or "code" not in query:
            raise PairingFailed("bad_code", f"{text[:120]!r}: a pairing URI is "
                                            "tenace-pair:?hub=URL&code=CODE[&ca=sha256:HEX]")
        code = query["code"][0]
        hub = hub or query.get("hub", [None])[0]
        fingerprint = query.get("ca", [None])[0]
        if fingerprint is not None and not _FINGERPRINT.match(fingerprint.lower()):
            raise PairingFailed("bad_code", f"ca={fingerprint[:80]!r}: sha256: and 64 hex "
                                            "digits")
        fingerprint = None if fingerprint is None else fingerprint.lower()
    else:
        code = text
    code = "".join(c for c in code.upper() if c not in " \t")
    if not _CODE.match(code):
        raise PairingFailed("bad_code", f"{code[:40]!r} is not a pairing code (8 letters and "
                                        "digits, e.g. K7QX-M2PD)")
    if hub is None:
        raise PairingFailed("bad_code", "a bare code needs the hub's console address "
                                        "(--hub http://HOST:PORT)")
    return PairingRequest(_hub_url(hub), code, fingerprint)


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """A paired device's credentials (module docstring). ``ca_file``: where the CA is kept."""

    hub: str
    account: str
    password: str
    role: str
    table: str
    seat: str | None
    broker: str
    ca_file: str | None = None
    first_seq: int = 0
    paired_at: float = 0.0

    def broker_url(self) -> str:
        """The broker URL with the credentials in it (and ``?ca=FILE`` over TLS)."""
        parts = urlsplit(self.broker)
        host = parts.netloc.rsplit("@", 1)[-1]
        url = (f"{parts.scheme}://{quote(self.account, safe='')}:"
               f"{quote(self.password, safe='')}@{host}")
        if self.ca_file is not None:
            url += f"?ca={quote(self.ca_file, safe='/')}"
        return url

    def save(self, path: Path | str | None = None, ca_pem: str | None = None) -> Path:
        """Write the config file (0600; its folder 0700 when made) and the CA beside it."""
        path = config_path(path)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        config = self
        if ca_pem is not None:
            ca_path = path.with_name(CA_NAME)
            write_private(ca_path, ca_pem)
            config = DeviceConfig(**{**asdict(self), "ca_file": str(ca_path)})
        write_private(path, json.dumps({"version": 1, **asdict(config)}, indent=1, allow_nan=False))
        return path

    def __repr__(self) -> str:   # never the password
        return f"DeviceConfig(account={self.account!r}, broker={self.broker!r})"


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by its owner only (0600): a secret
    (the device's credentials here; hub.accounts' files too)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def config_path(path: Path | str | None = None) -> Path:
    """The config file: ``path``, else ``$TENACE_DEVICE_CONFIG``, else the default."""
    chosen = path or os.environ.get(CONFIG_ENV) or DEFAULT_CONFIG
    return Path(chosen).expanduser()


def load(path: Path | str | None = None) -> DeviceConfig:
    """The stored config; PairingFailed ``no_config`` when there is none or it is unreadable."""
    file = config_path(path)
    try:
        data = json.loads(file.read_text())
        data.pop("version", None)
        return DeviceConfig(**data)
    except FileNotFoundError:
        raise PairingFailed("no_config", f"{file}: this device is not paired (--pair CODE, "
                                         "from the console's Devices page)") from None
    except (OSError, ValueError, TypeError) as err:
        raise PairingFailed("no_config", f"{file}: unreadable ({err})") from None


def redeem(request: PairingRequest, label: str = "", *, timeout: float = 15.0,
           cafile: str | None = None) -> tuple[DeviceConfig, str | None]:
    """Post the code to the hub (module docstring): (the config, the CA's PEM or None).
    ``cafile``: the authority an ``https`` console is checked with (default: the system's)."""
    body = json.dumps({"code": request.code, **({"device": label[:64]} if label else {})},
                      allow_nan=False)
    http = urllib.request.Request(
        request.hub + "/api/pair", data=body.encode(), method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"})
    context = None
    if request.hub.startswith("https"):
        if cafile is None and request.ca is not None:
            pinned = _pinned_authority(request, timeout)
            context = ssl.create_default_context(cadata=pinned)
        else:
            context = ssl.create_default_context(cafile=cafile)
    try:
        with urllib.request.urlopen(http, timeout=timeout, context=context) as response:
            answer = json.loads(response.read(256 * 1024))
    except urllib.error.HTTPError as err:
        try:
            refusal = json.loads(err.read(64 * 1024))
        except ValueError:
            refusal = {}
        finally:
            err.close()
        code = str(refusal.get("code") or f"http_{err.code}")
        retry = float(err.headers.get("Retry-After") or 0) if err.headers else 0.0
        raise PairingFailed(code, str(refusal.get("error") or err.reason), retry) from None
    except (urllib.error.URLError, OSError, TimeoutError) as err:
        reason = getattr(err, "reason", err)
        hint = ""
        if isinstance(reason, ssl.SSLCertVerificationError) and cafile is None \
                and request.ca is None:   # a typed code: nothing to check the console by
            hint = (" (the console's certificate is the club's own: give the device the "
                    "club's ca.crt with --ca, or pair with the QR code's tenace-pair: text, "
                    "which carries its fingerprint)")
        raise PairingFailed("unreachable", f"{request.hub}: {reason}{hint}") from None
    except ValueError as err:
        raise PairingFailed("bad_answer", f"{request.hub}: not JSON ({err})") from None
    return _config(request, answer)


def _pinned_authority(request: PairingRequest, timeout: float) -> str:
    """The club's CA from ``GET /api/pair/ca``, fetched without checking the console's
    certificate (the device has no authority yet) and accepted only when its fingerprint is
    the one scanned; the code is then sent only to a console that CA vouches for."""
    unchecked = ssl.create_default_context()
    unchecked.check_hostname = False
    unchecked.verify_mode = ssl.CERT_NONE
    http = urllib.request.Request(request.hub + "/api/pair/ca",
                                  headers={"Accept": "application/x-pem-file"})
    try:
        with urllib.request.urlopen(http, timeout=timeout, context=unchecked) as response:
            pem: str = response.read(64 * 1024).decode("ascii")
    except urllib.error.HTTPError as err:
        err.close()
        raise PairingFailed("ca_mismatch", f"{request.hub} gives no certificate authority "
                                           f"(HTTP {err.code}): is it the club's hub?") from None
    except (urllib.error.URLError, OSError, TimeoutError) as err:
        reason = getattr(err, "reason", err)
        raise PairingFailed("unreachable", f"{request.hub}: {reason}") from None
    except UnicodeDecodeError:
        raise PairingFailed("ca_mismatch", f"{request.hub}: its CA is not PEM text") from None
    try:
        got = ca_fingerprint(pem)
    except ValueError as err:
        raise PairingFailed("ca_mismatch", f"{request.hub}: its CA is not PEM: {err}") from None
    if not hmac.compare_digest(got, request.ca or ""):
        raise PairingFailed("ca_mismatch", f"{request.hub} shows the authority {got}, not the "
                                           f"one scanned ({request.ca}): not the club's hub; "
                                           "nothing was sent")
    return pem


def _config(request: PairingRequest, answer: Any) -> tuple[DeviceConfig, str | None]:
    try:
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            raise ValueError("not a pairing answer")
        ca = answer.get("ca")
        if ca is not None and not isinstance(ca, str):
            raise ValueError("ca is not PEM text")
        seat = answer.get("seat")
        config = DeviceConfig(
            hub=request.hub, account=str(answer["account"]), password=str(answer["password"]),
            role=str(answer["role"]), table=str(answer["table"]),
            seat=None if seat is None else str(seat), broker=str(answer["broker"]),
            first_seq=int(answer.get("first_seq") or 0), paired_at=time.time())
        urlsplit(config.broker)
    except (KeyError, TypeError, ValueError) as err:
        raise PairingFailed("bad_answer", f"{request.hub}: {err}") from None
    if request.ca is not None:
        if ca is None:
            raise PairingFailed("ca_mismatch", "the hub sent no CA certificate, but the "
                                               "pairing code names one: not our hub?")
        try:
            got = ca_fingerprint(ca)
        except ValueError as err:
            raise PairingFailed("ca_mismatch", f"the CA the hub sent is not PEM: {err}") \
                from None
        if got != request.ca:
            raise PairingFailed("ca_mismatch", f"the hub sent the CA {got[:23]}..., the "
                                               f"pairing code names {request.ca[:23]}...: "
                                               "not our hub? Nothing was stored")
    return config, ca


def pair_or_load(pair: str | None, hub: str | None, config: Path | str | None,
                 roles: tuple[str, ...], *, stored: bool = True,
                 say: Callable[[str], None] = print,
                 cafile: str | None = None) -> DeviceConfig | None:
    """A device command's ``--pair CODE-or-URI [--hub URL]``: redeem the code, check the
    account is of one of ``roles``, store the credentials in ``config`` and return them;
    without ``pair``, the stored credentials when ``stored`` (else None: the command's
    other options say where to connect). PairingFailed when it cannot (``wrong_device``: a
    code or a config file of another kind of device). ``cafile``: the authority an
    ``https`` console is checked with (the device's ``--ca``)."""
    import socket
    if pair:
        request = parse_pairing(pair, hub)
        paired, ca = redeem(request, label=socket.gethostname(), cafile=cafile)
        if paired.role not in roles:
            raise PairingFailed("wrong_device", f"the code pairs {paired.account} (a "
                                f"{paired.role} account), not a {' or '.join(roles)}: "
                                "nothing was stored")
        path = paired.save(config, ca)
        say(f"paired as {paired.account} ({paired.role}); credentials in {path}")
        return load(path)
    if not stored:
        return None
    kept = load(config)
    if kept.role not in roles:
        raise PairingFailed("wrong_device", f"{config_path(config)} holds {kept.account}'s "
                            f"credentials (a {kept.role} account), not a {' or '.join(roles)}'s")
    return kept
