"""The club's certificates: a certificate authority of its own and the broker's certificate.

A club network is not the Internet: no public authority can vouch for ``hub.local`` or
``192.168.1.10``. ``tenace deploy init`` makes the club a small authority instead (its key
stays in the deploy directory, mode 0600) and signs the broker's certificate with it; every
device is given the authority's certificate (``ca.crt``, public) and verifies the broker
against it and against the name or address it connects to. A phone on the club's Wi-Fi that
poses as the hub has no certificate signed by that key, so no tablet talks to it.

What is written (:func:`write_club_pki`)::

    ca.key       the authority's private key (0600): signs broker certificates, nothing else
    ca.crt       the authority's certificate: what devices trust (``--ca``, pairing)
    broker.key   the broker's private key (0600): Mosquitto's ``keyfile``, amqtt's ``keyfile``
    broker.crt   the broker's certificate followed by the authority's (the chain a broker sends)

Keys are ECDSA P-256 (fast handshakes on a Raspberry Pi; every TLS 1.2 client has it).
Validity: the authority :data:`CA_DAYS` (10 years: it is installed once on every device), the
broker :data:`BROKER_DAYS` (about 27 months: renewed with ``tenace deploy init --renew``
without touching the devices, since they trust the authority, not the broker's key). The
broker's names (subject alternative names) are the ``--host`` names and addresses given,
plus ``localhost``, 127.0.0.1 and ::1 so that the hub reaches its own broker on loopback and
checks it like any device.

The same authority signs client certificates (:func:`make_client_certificate`: a simultaneous
event's club bridges) and, for those, a certificate revocation list
(:func:`make_revocation_list`: the organiser's Mosquitto's ``crlfile``, hub.simultaneous.
revocation).

Errors: :class:`TlsError` (a ``hub.errors.HubError``) names the file or the host.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from hub.errors import HubError

__all__ = [
    "BROKER_DAYS", "CA_DAYS", "LOOPBACK_NAMES", "ClubPki", "TlsError", "key_pem",
    "make_authority", "make_broker_certificate", "make_client_certificate",
    "make_revocation_list", "pem", "read_authority", "read_certificate",
    "read_revocation_list", "subject_names", "write_club_pki", "write_file",
]

CA_DAYS = 3650
BROKER_DAYS = 825
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")

CA_KEY, CA_CERT, BROKER_KEY, BROKER_CERT = "ca.key", "ca.crt", "broker.key", "broker.crt"

Key = ec.EllipticCurvePrivateKey


class TlsError(HubError):
    """A certificate that cannot be made, read or written (names the file or host)."""


@dataclass(frozen=True, slots=True)
class ClubPki:
    """Where the club's certificate files are (:func:`write_club_pki`, module docstring)."""

    folder: Path

    @property
    def ca_key(self) -> Path:
        return self.folder / CA_KEY

    @property
    def ca_cert(self) -> Path:
        return self.folder / CA_CERT

    @property
    def broker_key(self) -> Path:
        return self.folder / BROKER_KEY

    @property
    def broker_cert(self) -> Path:
        return self.folder / BROKER_CERT

    def exists(self) -> bool:
        """Whether any of its keys is there already."""
        return self.ca_key.exists() or self.broker_key.exists()


def subject_names(hosts: Iterable[str], *, loopback: bool = True) -> list[x509.GeneralName]:
    """The subject alternative names of ``hosts`` (IP addresses as such, names as DNS
    names) and, with ``loopback``, the loopback names, each once; TlsError for a name no
    certificate can hold."""
    names: list[x509.GeneralName] = []
    for host in (*hosts, *(LOOPBACK_NAMES if loopback else ())):
        host = host.strip().rstrip(".").lower()
        try:
            name: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host.strip("[]")))
        except ValueError:
            labels = host.split(".")
            if not host or not all(label and len(label) <= 63 and label.isascii()
                                   and all(c.isalnum() or c == "-" for c in label)
                                   for label in labels if label != "*"):
                raise TlsError(f"--host {host!r}: not a host name or an IP address") from None
            name = x509.DNSName(host)
        if name not in names:
            names.append(name)
    return names


def _name(common_name: str, club: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, club),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def make_authority(club: str, *, days: int = CA_DAYS,
                   now: datetime.datetime | None = None) -> tuple[Key, x509.Certificate]:
    """A new certificate authority: its key and self-signed certificate (CA, path length 0:
    it signs broker certificates, no other authority)."""
    key = ec.generate_private_key(ec.SECP256R1())
    start = (now or datetime.datetime.now(datetime.UTC)) - datetime.timedelta(hours=1)
    name = _name(f"{club} certificate authority", club)
    public = key.public_key()
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name).public_key(public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(start + datetime.timedelta(days=days))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True,
                                         crl_sign=True, content_commitment=False,
                                         key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, encipher_only=False,
                                         decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert


def make_broker_certificate(ca_key: Key, ca_cert: x509.Certificate, hosts: Sequence[str], *,
                            days: int = BROKER_DAYS, now: datetime.datetime | None = None,
                            loopback: bool = True) -> tuple[Key, x509.Certificate]:
    """The broker's key and its certificate for ``hosts`` (plus loopback unless told not),
    signed by the authority; its common name is the first host."""
    return _leaf(ca_key, ca_cert, hosts[0] if hosts else "localhost",
                 ExtendedKeyUsageOID.SERVER_AUTH, days, now,
                 x509.SubjectAlternativeName(subject_names(hosts, loopback=loopback)))


def make_client_certificate(ca_key: Key, ca_cert: x509.Certificate, name: str, *,
                            days: int = BROKER_DAYS, now: datetime.datetime | None = None,
                            ) -> tuple[Key, x509.Certificate]:
    """A client's key and certificate signed by the authority, its common name ``name``
    (the account a broker with ``use_identity_as_username`` takes it for: a simultaneous
    event's club bridge, hub.simultaneous.kit), for client authentication only."""
    if not name or not name.isprintable() or len(name) > 64:
        raise TlsError(f"{name!r}: not a name a certificate can hold (1 to 64 characters)")
    return _leaf(ca_key, ca_cert, name, ExtendedKeyUsageOID.CLIENT_AUTH, days, now)


def _leaf(ca_key: Key, ca_cert: x509.Certificate, common_name: str,
          usage: x509.ObjectIdentifier, days: int, now: datetime.datetime | None,
          alt_names: x509.SubjectAlternativeName | None = None,
          ) -> tuple[Key, x509.Certificate]:
    """A new key and its certificate signed by the authority, named ``common_name`` in the
    authority's organisation, for ``usage`` only (a server or a client), valid ``days`` from
    an hour ago and never beyond the authority."""
    key = ec.generate_private_key(ec.SECP256R1())
    start = (now or datetime.datetime.now(datetime.UTC)) - datetime.timedelta(hours=1)
    end = min(start + datetime.timedelta(days=days), ca_cert.not_valid_after_utc)
    org = ca_cert.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)
    public = key.public_key()
    builder = (x509.CertificateBuilder()
               .subject_name(_name(common_name, str(org[0].value) if org else "Tenace"))
               .issuer_name(ca_cert.subject).public_key(public)
               .serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(end))
    if alt_names is not None:
        builder = builder.add_extension(alt_names, critical=False)
    cert = (builder
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=False,
                                         key_cert_sign=False, crl_sign=False,
                                         content_commitment=False, data_encipherment=False,
                                         key_agreement=False, encipher_only=False,
                                         decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    return key, cert


def make_revocation_list(ca_key: Key, ca_cert: x509.Certificate,
                         revoked: Iterable[tuple[int, datetime.datetime]], *, number: int,
                         now: datetime.datetime | None = None) -> bytes:
    """A certificate revocation list (PEM) of the authority's certificates ``revoked``
    (serial number, when), signed by the authority: Mosquitto's ``crlfile``. Issued an hour
    ago (as the certificates: a clock a little behind still takes it) and valid as long as
    the authority, since OpenSSL refuses every certificate of an authority whose list has
    expired; ``number`` (the CRL number) grows with each list issued."""
    start = (now or datetime.datetime.now(datetime.UTC)) - datetime.timedelta(hours=1)
    builder = (x509.CertificateRevocationListBuilder()
               .issuer_name(ca_cert.subject)
               .last_update(start)
               .next_update(max(ca_cert.not_valid_after_utc, start + datetime.timedelta(1)))
               .add_extension(x509.CRLNumber(number), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                   ca_key.public_key()), critical=False))
    for serial, when in revoked:
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(serial)
            .revocation_date(when).build())
    return builder.sign(ca_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


def read_revocation_list(path: Path | str) -> x509.CertificateRevocationList:
    """A PEM certificate revocation list; TlsError naming the file."""
    try:
        return x509.load_pem_x509_crl(Path(path).read_bytes())
    except (OSError, ValueError) as err:
        raise TlsError(f"{path}: not a readable PEM revocation list: {err}") from err


def pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def write_file(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` with ``mode`` from the first byte (a key is never readable by others,
    even for a moment), replacing the file atomically."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.unlink(missing_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)   # whatever the umask
        os.replace(temporary, path)
    except OSError as err:
        raise TlsError(f"{path}: cannot write: {err.strerror or err}") from err


def key_pem(key: Key) -> bytes:
    """A private key in PEM (PKCS #8, unencrypted: the file's mode protects it)."""
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _read_key(path: Path) -> Key:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as err:
        raise TlsError(f"{path}: not a readable private key: {err}") from err
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise TlsError(f"{path}: not an ECDSA key (written by tenace deploy init?)")
    return key


def read_certificate(path: Path | str) -> x509.Certificate:
    """The first certificate of a PEM file; TlsError naming the file."""
    try:
        return x509.load_pem_x509_certificate(Path(path).read_bytes())
    except (OSError, ValueError) as err:
        raise TlsError(f"{path}: not a readable PEM certificate: {err}") from err


def read_authority(pki: ClubPki) -> tuple[Key, x509.Certificate]:
    """The authority's key and certificate of ``pki`` (to sign more certificates)."""
    return _read_key(pki.ca_key), read_certificate(pki.ca_cert)


def write_club_pki(folder: Path | str, hosts: Sequence[str], *, club: str = "Tenace club",
                   force: bool = False, renew: bool = False) -> ClubPki:
    """Write the authority and the broker certificate into ``folder`` (module docstring).

    Keys already there are never replaced without ``force`` (a new authority means giving
    every device the new ``ca.crt``). ``renew`` keeps the authority and signs a new broker
    certificate (new names, or the old one about to expire): the devices notice nothing.
    """
    pki = ClubPki(Path(folder))
    subject_names(hosts)   # a bad name is refused before anything is written
    try:
        pki.folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise TlsError(f"{pki.folder}: cannot create: {err.strerror or err}") from err
    if renew:
        if not pki.ca_key.exists():
            raise TlsError(f"{pki.ca_key}: no certificate authority to renew the broker's "
                           "certificate with (deploy init without --renew makes one)")
        ca_key, ca_cert = _read_key(pki.ca_key), read_certificate(pki.ca_cert)
    elif pki.exists() and not force:
        raise TlsError(f"{pki.folder} holds keys already ({CA_KEY}, {BROKER_KEY}): --force "
                       "replaces them (every device must then get the new ca.crt), --renew "
                       "signs a new broker certificate with the same authority")
    else:
        ca_key, ca_cert = make_authority(club)
        write_file(pki.ca_key, key_pem(ca_key))
        write_file(pki.ca_cert, pem(ca_cert), 0o644)
    key, cert = make_broker_certificate(ca_key, ca_cert, hosts)
    write_file(pki.broker_key, key_pem(key))
    write_file(pki.broker_cert, pem(cert) + pem(ca_cert), 0o644)
    return pki
