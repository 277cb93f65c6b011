"""The clubs' certificates of a simultaneous event: which one each club holds, which are
revoked (``tenace sim-event revoke|reissue``, hub.simultaneous.kit).

``DIR/organiser/certificates.json`` keeps them: the authority they belong to (its
certificate's SHA-256 fingerprint), each club's current certificate (its serial number, hex:
known even once the organiser has deleted the kits it sent), and each certificate revoked
(the club, the serial, when, and why: ``revoked`` by the organiser, or ``reissued``,
replaced by a new one). ``DIR/organiser/tls/clubs.crl`` is the revoked ones as a certificate
revocation list (PEM, signed by the authority: hub.tls.make_revocation_list), the ``crlfile``
of the organiser's bridge listener (hub.simultaneous.bridging.bridge_listener): Mosquitto
refuses the TLS handshake of a bridge whose certificate is in it. ``sim-event init`` writes
both from the start, the list empty, so that a revocation never changes the broker's
configuration; an init that replaces the authority (``--force``) starts an empty list, since
no certificate of the old authority gets in anyway.

What Mosquitto 2.0.11 does with the list (tested for real, test_revoked.py): it reads it at
start and again on SIGHUP, and checks it at each new TLS handshake; a connection opened
before with a certificate revoked since stays open until it drops or Mosquitto restarts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes

from hub.simultaneous.event import SimError
from hub.tls import ClubPki, TlsError, make_revocation_list, read_authority, write_file

__all__ = ["CERTIFICATES_FILE", "CRL_FILE", "ClubCertificates", "Revoked"]

CERTIFICATES_FILE = "certificates.json"   # in DIR/organiser
CRL_FILE = "clubs.crl"                    # in DIR/organiser/tls
WHY = ("revoked", "reissued")


@dataclass(frozen=True, slots=True)
class Revoked:
    """A club's certificate revoked: its serial number, when, and why (:data:`WHY`)."""

    club: str
    serial: int
    when: datetime
    why: str

    def __post_init__(self) -> None:
        if self.why not in WHY:
            raise SimError(f"club {self.club}: {self.why!r} is not a reason ({', '.join(WHY)})")

    def to_json(self) -> dict[str, str]:
        return {"club": self.club, "serial": f"{self.serial:x}", "when": self.when.isoformat(),
                "why": self.why}

    @classmethod
    def from_json(cls, data: object) -> Revoked:
        if not isinstance(data, dict) or not all(
                isinstance(data.get(k), str) for k in ("club", "serial", "when", "why")):
            raise ValueError(f"not a revoked certificate: {data!r}")
        return cls(data["club"], int(data["serial"], 16), datetime.fromisoformat(data["when"]),
                   data["why"])


def authority_id(ca_cert: x509.Certificate) -> str:
    """What names the authority in the file: its certificate's SHA-256 fingerprint."""
    return ca_cert.fingerprint(hashes.SHA256()).hex()


@dataclass(slots=True)
class ClubCertificates:
    """The event's club certificates (module docstring): :meth:`load`, change, :meth:`save`."""

    pki: ClubPki
    issued: dict[str, int] = field(default_factory=dict)
    revoked: list[Revoked] = field(default_factory=list)
    number: int = 0     # of the last revocation list written

    @property
    def path(self) -> Path:
        return self.pki.folder.parent / CERTIFICATES_FILE

    @property
    def crl_file(self) -> Path:
        return self.pki.folder / CRL_FILE

    @classmethod
    def load(cls, pki: ClubPki) -> ClubCertificates:
        """The file kept for ``pki``'s authority; an empty one when there is none, or when
        it was kept for another authority (replaced since: its certificates are worthless)."""
        kept = cls(pki)
        if not kept.path.exists():
            return kept
        try:
            data = json.loads(kept.path.read_text(encoding="utf-8"))
            ca_cert = read_authority(pki)[1]
        except TlsError as err:
            raise SimError(str(err)) from err
        except (OSError, ValueError) as err:
            raise SimError(f"{kept.path}: unreadable: {err}") from err
        if not isinstance(data, dict) or data.get("authority") != authority_id(ca_cert):
            return kept
        try:
            issued = data.get("issued", {})
            if not isinstance(issued, dict) or not all(
                    isinstance(v, str) for v in issued.values()):
                raise ValueError(f"'issued' is not club -> serial: {issued!r}")
            kept.issued = {str(club): int(serial, 16) for club, serial in issued.items()}
            kept.revoked = [Revoked.from_json(entry) for entry in data.get("revoked", [])]
            kept.number = int(data.get("number", 0))
        except (ValueError, TypeError, SimError) as err:
            raise SimError(f"{kept.path}: not the event's certificates: {err}") from err
        return kept

    def is_revoked(self, serial: int) -> bool:
        return any(entry.serial == serial for entry in self.revoked)

    def revoke(self, club: str, why: str = "revoked",
               now: datetime | None = None) -> Revoked | None:
        """Revoke ``club``'s current certificate; None when it is revoked already (or the
        club has none)."""
        serial = self.issued.get(club)
        if serial is None or self.is_revoked(serial):
            return None
        entry = Revoked(club, serial, now or datetime.now(UTC).replace(microsecond=0), why)
        self.revoked.append(entry)
        return entry

    def save(self) -> Path:
        """Write the file and the revocation list (a new number); the list's path."""
        try:
            ca_key, ca_cert = read_authority(self.pki)
            self.number += 1
            crl = make_revocation_list(ca_key, ca_cert,
                                       [(e.serial, e.when) for e in self.revoked],
                                       number=self.number)
            data = {"authority": authority_id(ca_cert), "number": self.number,
                    "issued": {club: f"{serial:x}" for club, serial in self.issued.items()},
                    "revoked": [entry.to_json() for entry in self.revoked]}
            write_file(self.path, (json.dumps(data, indent=1) + "\n").encode(), 0o644)
            write_file(self.crl_file, crl, 0o644)
        except TlsError as err:
            raise SimError(str(err)) from err
        return self.crl_file
