"""The tablet's memory through a whole session of boards in a real window (issue 22).
Prints figures; asserts nothing.

    xvfb-run -a -s "-screen 0 1280x800x24" python benchmarks/tablet_session.py [--rounds 3]

What North's tablet receives through a session is recorded first from a real hub table
(hub.room through tests/tablet/tables.py): each round's check-in, then each board bid
(1S - 4S) and played card by card (the first legal card of the seat on turn), the result
confirmed and the hand record shown, then the next board. A child process then opens a real
1280x800 Kivy window (under Xvfb: an X server, not offscreen), with only the tablet in it
(no hub, no double-dummy solver), and feeds it those payloads, drawing a frame after each.
The process's
resident memory after each board (target 150 MB or less after the session), against the
same process before the first board; and Kivy's caches (textures of labels) and the live
widget count, which grow if a screen recreates its widgets per board.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_HOME", os.path.join(tempfile.gettempdir(), "tenace-kivy-bench"))
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KCFG_GRAPHICS_MULTISAMPLES", "0")   # as tablet/app.py sets it

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kivy.base import EventLoop
from kivy.cache import Cache
from kivy.core.window import Window
from kivy.uix.widget import Widget

from tablet.app import TabletRoot

PAIRS = {1: (1, 4), 2: (1, 6), 3: (1, 5)}   # table A1's pairs by round (Mitchell, 3 tables)


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _frames(n: int = 2) -> None:
    for _ in range(n):
        EventLoop.idle()


def _widgets() -> int:
    count = 0
    for o in gc.get_objects():
        with contextlib.suppress(ReferenceError):   # a weak proxy to a widget gone
            count += isinstance(o, Widget)
    return count


def _textures() -> int:
    return len(Cache._objects.get("kv.texture", {}))


def record_session(rounds: int) -> list[tuple[str, object]]:
    """What North's tablet receives through a session (round by round: check-in, each board
    bid and played card by card, the result confirmed), from a real hub table in this
    process: the payloads, in order."""
    from tests.tablet.tables import SEATS, Table  # the hub: in the parent only

    t = Table(SEATS)
    stream: list[tuple[str, object]] = []
    north = t["N"]
    on_state, on_seat = north.on_state, north.on_seat

    def state(payload: dict) -> None:   # type: ignore[type-arg]
        stream.append(("state", payload))
        on_state(payload)

    def seat(payload: dict) -> None:   # type: ignore[type-arg]
        stream.append(("seat", payload))
        on_seat(payload)

    north.on_state, north.on_seat = state, seat   # type: ignore[method-assign]
    room = t.room
    for number in range(1, rounds + 1):
        if number > 1:
            room.start_round(number, t.clock)
            t.publish()
        ns, ew = PAIRS[number]
        t.ok(t["N"], t["N"].checkin.check_in(ns))
        t.ok(t["E"], t["E"].checkin.check_in(ew))
        for board in list(t["N"].board.suggested_boards or []):
            t.ok(t["N"], t["N"].board.announce(board))
            t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
            play = room.tables["A1"].sitting.board.play
            while not play.is_complete:
                seat_ = play.turn.letter
                tablet = t[seat_] if seat_ != play.dummy.letter else t[play.declarer.letter]
                t.ok(tablet, tablet.play.card(str(play.legal_cards[0])))
            seats = t["E"].result.confirm_seats
            t.ok(t["E"], t["E"].result.confirm(True, seats[0] if seats else None))
            stream.append(("next", board))
            t["N"].result.next_board()
    return stream


def replay(path: Path) -> None:
    """The child: a real 1280x800 window, North's tablet fed the recorded payloads, a frame
    drawn after each; its memory after each board."""
    from tablet.presenter import TabletPresenter

    stream = json.loads(path.read_text())
    EventLoop.ensure_window()
    Window.size = (1280, 800)
    presenter = TabletPresenter("A1", seat="N", language="en")
    root = TabletRoot(presenter)
    Window.add_widget(root)
    root.size = Window.size
    _frames(5)
    gc.collect()
    start = _rss_mb()
    print(f"{'window, before the first board':<34} {start:8.1f} MB  widgets {_widgets():5d}  "
          f"textures {_textures():4d}   display {os.environ.get('DISPLAY', 'offscreen')}")
    boards = 0
    for kind, payload in stream:
        if kind == "state":
            presenter.on_state(payload)
        elif kind == "seat":
            presenter.on_seat(payload)
        else:
            root.refresh(force=True)
            _frames(3)
            presenter.result.next_board()
            boards += 1
            gc.collect()
            print(f"{'after board ' + str(payload):<34} {_rss_mb():8.1f} MB  "
                  f"widgets {_widgets():5d}  textures {_textures():4d}")
        root.refresh()
        _frames(1)
    end = _rss_mb()
    mark = "meets target" if end <= 150 else "ABOVE TARGET"
    print(f"after {boards} boards: {end:.1f} MB resident (+{end - start:.1f} MB over the "
          f"window before the first board); target 150 MB [{mark}]")
    root.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mock-gl", action="store_true",
                        help="the child with Kivy's mock GL backend (nothing drawn): what "
                             "the tablet holds without Mesa's software renderer")
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)   # the child
    args = parser.parse_args()
    if args.replay is not None:
        replay(args.replay)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stream.json"
        path.write_text(json.dumps(record_session(args.rounds)))
        env = dict(os.environ, KIVY_GL_BACKEND="mock") if args.mock_gl else None
        subprocess.run([sys.executable, __file__, "--replay", str(path)], check=True, env=env)


if __name__ == "__main__":
    main()
