"""Virtual NFC tags on Debian's ``vsmartcard-vpcd`` readers, and a pcscd to hold them: the
PC/SC path run for real without hardware (tests, benchmarks, demonstrations).

:class:`Pcscd` runs ``pcscd -f`` as root with a temporary configuration folder holding one
vpcd entry: two virtual readers, ``Virtual PCD 00 00`` listening on ``port`` and
``Virtual PCD 00 01`` on ``port + 1`` (vpcd listens on every interface: never on a
production hub). Only one pcscd runs per machine (its socket is ``/run/pcscd``).

:class:`VirtualCard` is one tag. vpcd's protocol (platform.md): the card is a TCP client
of vpcd, connecting inserts it and closing removes it; each frame either way is a 2-byte
big-endian length and the payload; a 1-byte frame from vpcd is a control code (0 power
off, 1 power on, 2 reset, 4 get ATR: only 4 wants an answer, the ATR); a longer one is a
command APDU, answered with the response APDU. ``FF CA 00 00 00`` gets the UID and
``90 00``; anything else ``6A 81`` (not supported). A card still "on the reader" when vpcd
goes away (pcscd stopped) connects again as soon as vpcd is back, like a tag left lying on
a real reader.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path
from types import TracebackType

from firmware_bridge.errors import PcscdError
from wire.processes import stop_process, wait_for_port

__all__ = ["ATR", "PCSCD", "Pcscd", "PcscdError", "VirtualCard", "free_port_pair"]

log = logging.getLogger(__name__)

PCSCD = "/usr/sbin/pcscd"
VPCD_DRIVER = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
PID_FILE = Path("/run/pcscd/pcscd.pid")
# A PC/SC part 3 storage-card ATR, card name 0x0003 (MIFARE Ultralight), as ACR122U gives.
ATR = bytes.fromhex("3B8F8001804F0CA0000003060300030000000068")
_GET_UID = bytes.fromhex("FFCA000000")
_NOT_SUPPORTED = bytes.fromhex("6A81")
_OK = bytes.fromhex("9000")


def free_port_pair() -> int:
    """A loopback port ``p`` with ``p`` and ``p + 1`` both free now."""
    for _ in range(50):
        with socket.socket() as first:
            first.bind(("127.0.0.1", 0))
            port: int = first.getsockname()[1]
            if port >= 65535:
                continue
            with socket.socket() as second:
                try:
                    second.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
                return port
    raise PcscdError("no two consecutive free ports found")


class Pcscd:
    """pcscd with two vpcd readers (module docstring); ``start()`` / ``stop()`` /
    ``restart()``, stopped by its PID."""

    READERS = ("Virtual PCD 00 00", "Virtual PCD 00 01")

    def __init__(self, folder: Path, port: int | None = None):
        if os.geteuid() != 0:
            raise PcscdError("pcscd needs root (it writes /run/pcscd)")
        for needed in (PCSCD, VPCD_DRIVER):
            if not Path(needed).exists():
                raise PcscdError(f"{needed} is missing: apt install pcscd vsmartcard-vpcd")
        self.folder = folder
        self.config = folder / "reader.conf.d"
        self.config.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port_pair()
        self.ports = (self.port, self.port + 1)
        (self.config / "vpcd").write_text(
            f'FRIENDLYNAME "Virtual PCD"\nDEVICENAME   /dev/null:0x{self.port:X}\n'
            f"LIBPATH      {VPCD_DRIVER}\nCHANNELID    0x{self.port:X}\n")
        self.log = folder / "pcscd.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> Pcscd:
        if self.process is not None and self.process.poll() is None:
            return self
        other = _running_pcscd()
        if other is not None:
            raise PcscdError(f"another pcscd runs already (PID {other}): stop it first "
                             "(systemctl stop pcscd.socket pcscd)")
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([PCSCD, "-f", "-c", str(self.config)],
                                            stdout=out, stderr=subprocess.STDOUT)
        if not all(wait_for_port(p, timeout, self.process) for p in self.ports):
            self.stop()
            raise PcscdError(f"pcscd did not start:\n{self.log.read_text()[-2000:]}")
        return self

    def stop(self) -> None:
        """SIGTERM, SIGKILL after 5 s; idempotent."""
        process, self.process = self.process, None
        if process is not None:
            stop_process(process)

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def __enter__(self) -> Pcscd:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _running_pcscd() -> int | None:
    try:
        pid = int(PID_FILE.read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


class VirtualCard:
    """One tag with ``uid`` (hex) for the vpcd reader listening on ``port``.

    ``insert()`` puts it on the reader (waiting up to ``timeout`` for vpcd to listen);
    ``remove()`` takes it off. With ``vanish`` the card is pulled away the moment the UID
    is asked, before answering (a card snatched off the reader mid-read). ``asked`` counts
    the UID commands answered."""

    def __init__(self, port: int, uid: str, *, host: str = "127.0.0.1", vanish: bool = False):
        self.port = port
        self.host = host
        self.uid = bytes.fromhex(uid)
        self.vanish = vanish
        self.asked = 0
        self._on = threading.Event()       # the card is on the reader
        self._connected = threading.Event()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def insert(self, timeout: float = 5.0) -> VirtualCard:
        self._on.set()
        self._thread = threading.Thread(target=self._serve, name=f"vpcd-card-{self.port}",
                                        daemon=True)
        self._thread.start()
        if not self._connected.wait(timeout):
            log.warning("virtual card %s: vpcd on port %d not there after %.1f s: still "
                        "trying", self.uid.hex(), self.port, timeout)
        return self

    def remove(self) -> None:
        self._on.clear()
        sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):   # already closed by vpcd
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5.0)
        self._thread = None

    @property
    def inserted(self) -> bool:
        return self._on.is_set()

    def __enter__(self) -> VirtualCard:
        return self.insert()

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def _serve(self) -> None:
        while self._on.is_set():
            try:
                sock = socket.create_connection((self.host, self.port), timeout=1.0)
            except OSError:
                time.sleep(0.02)   # vpcd not listening (pcscd stopped): a tag stays put
                continue
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._sock = sock
            self._connected.set()
            try:
                self._exchange(sock)
            except OSError as err:
                log.debug("virtual card %s: %s", self.uid.hex(), err)
            finally:
                self._sock = None
                sock.close()
            if self.vanish:
                self._on.clear()

    def _exchange(self, sock: socket.socket) -> None:
        sock.settimeout(None)
        buffer = b""
        while self._on.is_set():
            data = sock.recv(4096)
            if not data:
                return   # vpcd went away
            buffer += data
            while len(buffer) >= 2:
                (size,) = struct.unpack(">H", buffer[:2])
                if len(buffer) < 2 + size:
                    break
                frame, buffer = buffer[2:2 + size], buffer[2 + size:]
                answer = self._answer(frame)
                if answer is None and self.vanish and frame == _GET_UID:
                    return
                if answer is not None:
                    sock.sendall(struct.pack(">H", len(answer)) + answer)
                    # Quick ACK, or the next exchange waits for the delayed ACK (~40 ms).
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)

    def _answer(self, frame: bytes) -> bytes | None:
        if len(frame) == 1:
            return ATR if frame[0] == 4 else None   # power off/on and reset: no answer
        if frame == _GET_UID:
            if self.vanish:
                return None
            self.asked += 1
            return self.uid + _OK
        return _NOT_SUPPORTED
