"""`tenace deploy init --broker mosquitto` with a real Mosquitto that drops root to its own
user (as Debian's service runs it): after a device is paired (the hub rewrites the password
and ACL files as its own user) and Mosquitto is sent SIGHUP (what the tenace-mosquitto-reload
path unit does), the new account connects and the old ones still do. Before the fix the
rewritten files were 0600 and Mosquitto, as the user `mosquitto`, could no longer open them
("Unable to open pwfile")."""

from __future__ import annotations

import configparser
import grp
import json
import os
import pwd
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from hub.accounts import Accounts
from hub.deploy import init
from hub.mosquitto import MOSQUITTO, free_port, wait_for_port
from tenace.cli import main
from wire.mqtt import MqttClient, MqttError
from wire.processes import stop_process

REPO = Path(__file__).resolve().parents[2]
EVENT = REPO / "deploy" / "event.example.toml"
SHARED = ("mosquitto.passwd", "mosquitto.acl", "broker.key")
RELOAD_UNITS = ("tenace-mosquitto-reload.path", "tenace-mosquitto-reload.service")


def mosquitto_ids() -> tuple[int, int]:
    """(uid, gid) of Mosquitto's user and group: the test fails, never skips, without them."""
    try:
        return pwd.getpwnam("mosquitto").pw_uid, grp.getgrnam("mosquitto").gr_gid
    except KeyError:
        pytest.fail("no user or group 'mosquitto' on this machine: install Mosquitto "
                    "(apt install mosquitto creates them; scripts/test does)")


@pytest.fixture
def club() -> Iterator[Path]:
    """A deploy directory Mosquitto's user can reach (pytest's tmp_path is 0700 root's)."""
    base = Path(tempfile.mkdtemp(prefix="tenace-mosqpair-"))
    os.chmod(base, 0o755)
    folder = base / "club"
    init(folder, ["hub.club.test", "127.0.0.1"], event=EVENT, broker="mosquitto")
    try:
        yield folder
    finally:
        shutil.rmtree(base, ignore_errors=True)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _connects(url: str, client_id: str, ceiling: float = 10.0) -> bool:
    client = MqttClient(url, client_id, clean_session=True)
    try:
        client.wait_connected(ceiling)
        return True
    except MqttError:
        return False
    finally:
        client.close()


def _uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for pid {pid}")


def test_mosquittos_files_are_its_groups_and_no_one_elses(club: Path) -> None:
    _, gid = mosquitto_ids()
    for name in SHARED:
        assert (mode(club / name), (club / name).stat().st_gid) == (0o640, gid), name
    assert mode(club / "mosquitto-data") == 0o770
    assert (club / "mosquitto-data").stat().st_gid == gid
    for name in ("ca.key", "accounts.json", "tenace-hub.keyring", "device-credentials.json"):
        assert mode(club / name) == 0o600, name
    hub = (club / "tenace-hub.service").read_text()
    assert "\nSupplementaryGroups=mosquitto\n" in hub


def test_the_reload_units_watch_the_accounts_and_reload_mosquitto(club: Path) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((club / RELOAD_UNITS[0]).read_text())
    assert parser["Path"]["Unit"] == RELOAD_UNITS[1]
    watched = [line.split("=", 1)[1] for line in (club / RELOAD_UNITS[0]).read_text().splitlines()
               if line.startswith("PathChanged=")]
    assert watched == [f"{club}/mosquitto.passwd", f"{club}/mosquitto.acl"]
    service = (club / RELOAD_UNITS[1]).read_text()
    exec_start = next(line for line in service.splitlines() if line.startswith("ExecStart="))
    assert exec_start.split("=", 1)[1].split()[1:] == ["reload", "mosquitto.service"]
    assert Path(exec_start.split("=", 1)[1].split()[0]).is_absolute()
    done = subprocess.run(["systemd-analyze", "verify", *(str(club / u) for u in
                                                          ("tenace-hub.service", *RELOAD_UNITS))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tenace" not in done.stderr, done.stderr


def test_a_device_paired_after_mosquitto_started_connects_after_its_reload(
        club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    uid, _ = mosquitto_ids()
    port = free_port()
    config = club / "mosquitto-test.conf"   # as written, on a loopback port; no "user root"
    config.write_text((club / "mosquitto.conf").read_text().replace(
        "listener 8883 0.0.0.0", f"listener {port} 127.0.0.1"))
    log_path = club / "mosquitto-test.log"
    broker = f"mqtts://127.0.0.1:{port}?ca={club}/ca.crt"
    known = json.loads((club / "device-credentials.json").read_text())
    with log_path.open("wb") as log:
        process = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=log,
                                   stderr=subprocess.STDOUT)
        try:
            assert wait_for_port(port, 10.0, process), log_path.read_text()
            if os.geteuid() == 0:   # started as root (as the tests run), it dropped to its user
                assert _uid(process.pid) == uid, log_path.read_text()
            north = f"mqtts://A1-N:{known['A1-N']}@127.0.0.1:{port}?ca={club}/ca.crt"
            assert _connects(north, "A1-N"), log_path.read_text()

            # A new device paired: the hub's code (tenace accounts issue) rewrites the files.
            assert main(["accounts", "issue", "dealer-2", "--role", "dealer", "--data",
                         str(club), "--url", "--broker", broker]) == 0
            spare = capsys.readouterr().out.strip().splitlines()[-1]
            assert urlsplit(spare).username == "dealer-2", spare
            for name in SHARED[:2]:
                assert mode(club / name) == 0o640, name
            process.send_signal(signal.SIGHUP)   # what tenace-mosquitto-reload.service does
            ceiling = time.monotonic() + 30.0
            while not _connects(spare, "dealer-2", 3.0):
                assert time.monotonic() < ceiling, log_path.read_text()
                assert process.poll() is None, log_path.read_text()
            assert _connects(north, "A1-N"), log_path.read_text()   # the old ones still do
            assert "Unable to open" not in log_path.read_text()
        finally:
            stop_process(process)




def _rewrite_as(user: str, folder: Path, groups: list[int]) -> tuple[int, str]:
    """Rewrite ``folder``'s accounts (a device issued, as the hub does) in a child process
    that runs as ``user`` with the supplementary ``groups`` (the hub as its own service user,
    with its unit's SupplementaryGroups= or without): (exit status, its error)."""
    entry = pwd.getpwnam(user)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: never back into pytest
        status = 1
        try:
            os.close(read)
            os.setgroups(groups)
            os.setgid(entry.pw_gid)
            os.setuid(entry.pw_uid)
            Accounts(folder).issue("dealer-3", "dealer")
            status = 0
        except BaseException as err:   # told to the parent
            os.write(write, str(err).encode())
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), said


def test_the_hub_as_its_own_user_keeps_mosquittos_group_or_says_why_it_cannot(
        club: Path) -> None:
    """The hub runs as a user of its own (deploy init --user) that owns the deploy directory;
    its unit's SupplementaryGroups=mosquitto lets it give the rewritten files Mosquitto's
    group. Without it the rewrite is refused, naming the file and the cure, and the files are
    left as they were (Mosquitto goes on reading them)."""
    if os.geteuid() != 0:
        pytest.fail("this test changes user: run it as root (as scripts/test does)")
    _, gid = mosquitto_ids()
    nobody = pwd.getpwnam("nobody")
    for path in [club, *club.iterdir()]:
        if path.name != "data":
            os.chown(path, nobody.pw_uid, -1)      # chown -R tenace DIR: the group is kept
    before = {name: (club / name).read_bytes() for name in ("mosquitto.passwd", "accounts.json")}
    status, said = _rewrite_as("nobody", club, [])
    assert status != 0
    assert "mosquitto.passwd" in said and "SupplementaryGroups" in said, said
    assert {name: (club / name).read_bytes() for name in before} == before
    assert (mode(club / "mosquitto.passwd"), (club / "mosquitto.passwd").stat().st_gid) == \
        (0o640, gid)
    assert not [p.name for p in club.iterdir() if p.name.startswith(".")]   # no leftover

    assert _rewrite_as("nobody", club, [gid]) == (0, "")
    for name in SHARED[:2]:
        info = (club / name).stat()
        assert (stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid) == \
            (0o640, nobody.pw_uid, gid), name
    assert "dealer-3:" in (club / "mosquitto.passwd").read_text()
    assert mode(club / "accounts.json") == 0o600


def test_without_mosquittos_group_deploy_init_says_to_install_it_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without Mosquitto installed (no group to give its files): a unit with
    SupplementaryGroups= of a missing group would not start, so deploy init refuses first."""
    import hub.deploy
    monkeypatch.setattr(hub.deploy, "MOSQUITTO_GROUP", "tenace-no-such-group")
    with pytest.raises(hub.deploy.DeployError, match="apt install mosquitto"):
        init(tmp_path / "club", ["hub.club.test"], broker="mosquitto")
    assert not (tmp_path / "club" / "ca.key").exists()
