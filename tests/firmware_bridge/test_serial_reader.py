"""The serial backend (firmware_bridge/readers/serial_port.py) on real ports: a socat pty
pair and a TCP socket (``socket://``, as a reader behind ser2net or on Wi-Fi). Bad lines
are logged and skipped, a port that goes away is a status, and reading resumes when it is
back."""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

from firmware_bridge.readers import ReaderStatus, TagRead, open_reader
from firmware_bridge.readers.serial_port import SerialReader
from firmware_bridge.readers.tagline import format_line
from hub.mosquitto import free_port
from tests.firmware_bridge.conftest import Pty

A, B, C = "04A1B2C3D4E580", "04A1B2C3D4E581", "04A1B2C3D4E582"


def next_read(reader: SerialReader, timeout: float = 3.0) -> TagRead | ReaderStatus | None:
    return reader.read(timeout)


def tags(reader: SerialReader, timeout: float) -> list[str]:
    out = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = reader.read(left)
        if isinstance(event, TagRead):
            out.append(event.uid)
    return out


def test_garbled_partial_and_bad_checksum_lines_are_logged_and_the_good_ones_read(
        pty: Pty, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, "firmware_bridge.readers.serial_port")
    with open_reader(f"serial:{pty.reader}") as reader:
        assert isinstance(reader, SerialReader)
        assert isinstance(next_read(reader), ReaderStatus) and reader.present
        good = format_line("TAG", A)
        bad_checksum = good[:-4] + (b"00" if good[-4:-2] != b"00" else b"01") + b"\r\n"
        pty.write(b"\x00\xff garbage\n" + good + bad_checksum + b"$TAG,04A1B2*" + b"\n"
                  + format_line("TAG", B)[:9])                  # B cut in two writes
        time.sleep(0.1)
        pty.write(format_line("TAG", B)[9:] + format_line("ERR", "antenna") + format_line("TAG", C))
        assert tags(reader, 1.0) == [A, B, C]
    refused = [r.getMessage() for r in caplog.records]
    assert any("garbled" in m for m in refused)
    assert any("bad checksum" in m for m in refused)
    assert any("no checksum" in m for m in refused)
    assert any("fault: antenna" in m for m in refused)
    assert all(pty.reader in m for m in refused)


def test_a_pty_that_goes_away_is_a_status_not_a_crash(pty: Pty) -> None:
    with open_reader(f"serial:{pty.reader}", retry=0.1) as reader:
        assert isinstance(next_read(reader), ReaderStatus) and reader.present
        pty.write(format_line("TAG", A))
        assert tags(reader, 0.5) == [A]
        pty.stop()   # the USB cable pulled: the port is gone
        gone = next_read(reader)
        assert isinstance(gone, ReaderStatus) and not gone.present
        assert pty.reader in gone.detail


class TagServer:
    """A reader reached over TCP: accepts one connection at a time and sends lines."""

    def __init__(self, port: int):
        self.port = port
        self.server = socket.create_server(("127.0.0.1", port))
        self.conn: socket.socket | None = None
        self.connected = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        try:
            self.conn, _ = self.server.accept()
        except OSError:
            return
        self.connected.set()

    def send(self, data: bytes) -> None:
        assert self.connected.wait(5)
        assert self.conn is not None
        self.conn.sendall(data)

    def stop(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.server.close()


def test_a_network_reader_lost_and_back_resumes_reading(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, "firmware_bridge.readers.serial_port")
    port = free_port()
    server = TagServer(port)
    try:
        with open_reader(f"serial:socket://127.0.0.1:{port}", retry=0.1) as reader:
            assert isinstance(next_read(reader), ReaderStatus) and reader.present
            server.send(format_line("TAG", A) + b"$TAG,04A1")   # a line cut by the outage
            assert tags(reader, 0.3) == [A]
            server.stop()
            gone = next_read(reader)
            assert isinstance(gone, ReaderStatus) and not gone.present
            server = TagServer(port)
            back = next_read(reader)
            assert isinstance(back, ReaderStatus) and back.present
            server.send(format_line("TAG", B))
            assert tags(reader, 0.5) == [B]
    finally:
        server.stop()
    assert ["partial line cut off" in r.getMessage() for r in caplog.records] == [True]
