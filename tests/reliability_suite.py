"""The reliability suite of issue 30 item 8 (not a test module): concurrency of CLI and
API in processes, SIGKILLs during state-changing commands, hand edits of every table
and of the journal, argument fuzz — each returning counts (lost, corrupt, exit 1). The
test suite runs it small (tests/test_reliability.py); bench/reliability.py runs it at
the issue's scale and prints the figures.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import tomllib
import zlib
from pathlib import Path
from typing import Any

PY = sys.executable
ENV_PATH = os.pathsep.join(sys.path)

# A process that does ``per`` clock ticks, alternating the command line and the API.
_WORKER = """
import sys
from d2d_cli import api, cli
from d2d_cli.errors import D2DError
path, per, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ok = bad = internal = 0
for i in range(per):
    if (i + first) % 2:
        try:
            api.Session(path).clock.tick()
            ok += 1
        except D2DError:
            bad += 1
        except Exception:
            internal += 1
    else:
        code = cli.main(["--session", path, "clock", "tick"])
        ok += code == 0
        bad += code in (2, 3)
        internal += code not in (0, 2, 3)
print(ok, bad, internal)
"""


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "D2D_DATA_DIR": str(data), "PYTHONPATH": ENV_PATH, **extra}
    env.pop("D2D_SESSION", None)
    return env


def d2d(data: Path, *args: str, timeout: float = 120,
        **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "d2d_cli", *args], capture_output=True, text=True,
                          env=_env(data, **extra), timeout=timeout)


def _whole(path: Path) -> bool:
    """The session parses and passes the shape check (a fresh process, no cache)."""
    try:
        tomllib.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return True


def _clock(data: Path, path: Path) -> int:
    shown = d2d(data, "--session", str(path), "clock", "show", "--json")
    return int(json.loads(shown.stdout)["result"]["clock"])


def concurrency(folder: Path, procs: int = 8, per: int = 4) -> dict[str, int]:
    """``procs`` processes, each ``per`` clock ticks (half through the API): every tick
    that reported success is on the clock (lost = successes − ticks on file)."""
    data = folder / "data"
    path = folder / "race.toml"
    assert d2d(data, "--seed", "1", "session", "new", str(path)).returncode == 0
    # room for 1,999 ticks (the clock runs from -1000 to 1000)
    assert d2d(data, "--session", str(path), "clock", "set", "--", "-999").returncode == 0
    start = _clock(data, path)
    ps = [subprocess.Popen([PY, "-c", _WORKER, str(path), str(per), str(i)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=_env(data, D2D_LOCK_TIMEOUT="60")) for i in range(procs)]
    ok = bad = internal = 0
    for p in ps:
        out, _ = p.communicate(timeout=600)
        if p.returncode != 0 or not out.strip():
            internal += 1
            continue
        a, b, c = map(int, out.split()[-3:])
        ok, bad, internal = ok + a, bad + b, internal + c
    corrupt = 0 if _whole(path) else 1
    ticks = _clock(data, path) - start if not corrupt else 0
    return {"operations": procs * per, "ok": ok, "refused": bad, "exit 1": internal,
            "lost": ok - ticks, "corrupt": corrupt}


KILL_COMMANDS = [
    ("scene", "load", "combat1"), ("round", "start"), ("npc", "turn", "--all"),
    ("char", "import", "{char}", "--rename", "R{i}"), ("fate", "draw", "3"),
    ("session", "undo"), ("session", "redo"), ("unit", "add", "U{i}", "--body", "2x1"),
    ("clock", "advance", "5"), ("round", "end"),
]


def kills(folder: Path, n: int = 10, seed: int = 1) -> dict[str, int]:
    """``n`` state-changing commands (scene load, npc turn, char import, undo …), each
    killed at a random moment: the file is always whole, the next command works, and
    the journal still undoes exactly."""
    rng = random.Random(seed)
    data = folder / "kdata"
    assert d2d(data, "scene", "load", "combat1").returncode == 0
    assert d2d(data, "char", "new", "Rook", "--body", "7", "--speed", "5").returncode == 0
    char = folder / "rook.toml"
    assert d2d(data, "char", "export", "Rook", "--format", "toml", "-o", str(char)
               ).returncode == 0
    path = data / "default.toml"
    t = time.perf_counter()
    d2d(data, "fate", "status")
    typical = time.perf_counter() - t  # a command's start-up and read: kills aim inside
    corrupt = internal = stuck = finished = 0
    for i in range(n):
        cmd = [a.format(i=i, char=char) for a in KILL_COMMANDS[i % len(KILL_COMMANDS)]]
        p = subprocess.Popen([PY, "-m", "d2d_cli", *cmd], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=_env(data))
        time.sleep(rng.uniform(0.5, 1.3) * typical)
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
        p.communicate()
        if p.returncode == 1:
            internal += 1
        finished += p.returncode >= 0
        if not _whole(path):
            corrupt += 1
            continue
        after = d2d(data, "fate", "draw", "--json")
        if after.returncode == 1:
            internal += 1
        elif after.returncode != 0:
            stuck += 1
        else:  # undo of that draw restores the file byte for byte
            before = path.read_bytes()
            d2d(data, "fate", "draw")
            if d2d(data, "session", "undo").returncode != 0 or path.read_bytes() != before:
                corrupt += 1
    return {"kills": n, "finished before the kill": finished, "corrupt": corrupt,
            "exit 1": internal, "unusable after": stuck}


def _journal_line(entry: Any) -> bytes:
    body = json.dumps(entry, separators=(",", ":")).encode()
    return b"%08x " % zlib.crc32(body) + body + b"\n"


_VALUES = ['""', "-1", "1e9", '"\\u001b[2J"', "[]", "{}", "true", '"Z99"', '"x"', "nan",
           '"E\\u0669"', "1.5", '["", "."]', "2000-01-01"]


def _mutate_text(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    spots = [i for i, line in enumerate(lines) if " = " in line]
    i = rng.choice(spots)
    key = lines[i].split(" = ", 1)[0]
    how = rng.randrange(4)
    if how == 0:
        lines[i] = f"{key} = {rng.choice(_VALUES)}"
    elif how == 1:
        del lines[i]
    elif how == 2:
        lines.insert(i, f'"\\u009b{rng.randrange(99)}" = 1')
    else:
        lines[i] = lines[i] + "\n" + lines[i]
    return "\n".join(lines)


def _mutate_journal(raw: bytes, rng: random.Random) -> bytes:
    lines = raw.splitlines(keepends=True)
    if not lines:
        return raw
    k = rng.randrange(len(lines))
    try:
        e = json.loads(lines[k][9:])
    except ValueError:
        return raw
    how = rng.randrange(8)
    if how == 0:
        e = [1, 2]
    elif how == 1 and isinstance(e, dict):
        e["d"] = [[1]]
    elif how == 2 and isinstance(e, dict):
        e["id"] = "x"
    elif how == 3 and isinstance(e, dict):
        e["v"] = 99
    elif how == 4 and isinstance(e, dict):
        e["op"] = "zap"
    elif how == 5 and isinstance(e, dict) and e.get("d"):
        e["d"] = [[h[0] + 0.5, h[1], h[2]] for h in e["d"]]
    elif how == 6 and isinstance(e, dict):
        e["h1"] = "0" * 32
    else:
        lines[k] = lines[k][:len(lines[k]) // 2]  # torn
        return b"".join(lines)
    lines[k] = _journal_line(e)
    return b"".join(lines)


def hand_edits(folder: Path, n: int = 20, seed: int = 2) -> dict[str, int]:
    """``n`` hand edits of the session (every table: a value of the wrong type, a key
    dropped or doubled, a control character) and of its journal; after each, lookups,
    a change and undo/redo (with and without --force) exit 0, 2 or 3 — never 1 — and a
    failing exit leaves the session, .bak and journal byte for byte."""
    rng = random.Random(seed)
    data = folder / "hdata"
    assert d2d(data, "scene", "load", "combat1").returncode == 0
    assert d2d(data, "round", "start").returncode == 0
    assert d2d(data, "fate", "draw").returncode == 0
    path = data / "default.toml"
    jp = data / "default.toml.journal"
    good_text, good_journal = path.read_bytes(), jp.read_bytes()
    internal = changed_on_failure = 0
    runs = 0
    for i in range(n):
        path.write_bytes(good_text)
        jp.write_bytes(good_journal)
        if i % 3 == 2:
            jp.write_bytes(_mutate_journal(good_journal, rng))
        else:
            path.write_text(_mutate_text(good_text.decode(), rng), "utf-8")
        for args in (("status",), ("board", "--json"), ("fate", "draw"),
                     ("session", "undo"), ("session", "undo", "--force"),
                     ("session", "redo", "--force"), ("npc", "turn", "Goblin Scout")):
            before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
            res = d2d(data, *args)
            runs += 1
            if res.returncode not in (0, 2, 3):
                internal += 1
            elif res.returncode:
                after = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
                changed_on_failure += after != before
    return {"mutations": n, "commands": runs, "exit 1": internal,
            "changed on a failing exit": changed_on_failure}


_WORDS = ["fate", "draw", "unit", "add", "show", "rm", "task", "new", "win", "clock",
          "event", "add", "round", "start", "end", "scene", "load", "combat1", "board",
          "--svg", "--json", "--force", "char", "export", "import", "npc", "turn",
          "--all", "session", "undo", "redo", "log", "-o", "x.svg", "3", "-1", "E9",
          "Archer", "\x1b[2J", "\u202e", "x" * 300, "", "--group", "0", "conflict",
          "hit", "crit", "odds", "roll", "2d6", "oracle", "sim", "--runs", "1", "--log"]


def fuzz(folder: Path, n: int = 40, seed: int = 3) -> dict[str, int]:
    """``n`` random argument lists, in process (Typer's runner): exit 0, 2 or 3 only."""
    from typer.testing import CliRunner

    from d2d_cli.cli import app

    rng = random.Random(seed)
    runner = CliRunner()
    old = os.environ.get("D2D_DATA_DIR")
    os.environ["D2D_DATA_DIR"] = str(folder / "fdata")
    cwd = os.getcwd()
    (folder / "fwork").mkdir(exist_ok=True)
    os.chdir(folder / "fwork")
    internal = 0
    try:
        runner.invoke(app, ["scene", "load", "combat1"])
        for _ in range(n):
            args = [rng.choice(_WORDS) for _ in range(rng.randrange(1, 7))]
            res = runner.invoke(app, args)
            if res.exit_code not in (0, 2, 3):
                internal += 1
    finally:
        os.chdir(cwd)
        if old is None:
            os.environ.pop("D2D_DATA_DIR", None)
        else:
            os.environ["D2D_DATA_DIR"] = old
    return {"argument lists": n, "exit 1": internal}


def threads(folder: Path, workers: int = 8, per: int = 5) -> dict[str, int]:
    """``workers`` threads of one process, each ``per`` clock ticks through the API (the
    Python API from threads, issue 39 item 6): every tick reported done is on the clock."""
    from concurrent.futures import ThreadPoolExecutor

    from d2d_cli import api
    from d2d_cli.errors import D2DError

    data = folder / "tdata"
    path = folder / "threads.toml"
    assert d2d(data, "--seed", "1", "session", "new", str(path)).returncode == 0
    assert d2d(data, "--session", str(path), "clock", "set", "--", "-999").returncode == 0
    start = _clock(data, path)
    old = {k: os.environ.get(k) for k in ("D2D_DATA_DIR", "D2D_LOCK_TIMEOUT")}
    os.environ.update({"D2D_DATA_DIR": str(data), "D2D_LOCK_TIMEOUT": "60"})

    def work(_: int) -> tuple[int, int, int]:
        ok = bad = internal = 0
        for _ in range(per):
            try:
                api.Session(str(path)).clock.tick()
                ok += 1
            except D2DError:
                bad += 1
            except Exception:
                internal += 1
        return ok, bad, internal

    try:
        with ThreadPoolExecutor(workers) as pool:
            got = list(pool.map(work, range(workers)))
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    ok, bad, internal = (sum(g[i] for g in got) for i in range(3))
    corrupt = 0 if _whole(path) else 1
    ticks = _clock(data, path) - start if not corrupt else 0
    return {"operations": workers * per, "ok": ok, "refused": bad, "exit 1": internal,
            "lost": ok - ticks, "corrupt": corrupt}


FULL_DISK_COMMANDS = [("fate", "draw"), ("clock", "tick"), ("unit", "add", "U{i}", "--body",
                      "2x1"), ("npc", "turn", "--all"), ("session", "undo"),
                      ("session", "redo"), ("round", "end"), ("round", "start")]
FULL_DISK_STEPS = ("backup", "journal", "temp", "renamed")


def full_disk(folder: Path, n: int = 16, seed: int = 5) -> dict[str, int]:
    """``n`` state-changing commands, each meeting a full disk (ENOSPC) at one step of
    its write (the backup, the journal, the temp file, after the rename): a failing
    exit is 2 or 3, never 1, and leaves the session, .bak and journal byte for byte; the
    file is always whole."""
    import errno
    import io

    from d2d_cli import cli, env

    rng = random.Random(seed)
    data = folder / "ddata"
    assert d2d(data, "scene", "load", "combat1").returncode == 0
    assert d2d(data, "round", "start").returncode == 0
    old = os.environ.get("D2D_DATA_DIR")
    os.environ["D2D_DATA_DIR"] = str(data)
    internal = changed = corrupt = failed = 0
    try:
        for i in range(n):
            step = FULL_DISK_STEPS[i % len(FULL_DISK_STEPS)] if i < 8 else \
                rng.choice(FULL_DISK_STEPS)
            args = [a.format(i=i) for a in FULL_DISK_COMMANDS[i % len(FULL_DISK_COMMANDS)]]

            def fail(at: str, step: str = step) -> None:
                if at == step:
                    raise OSError(errno.ENOSPC, "No space left on device (injected)")

            before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
            code = cli.main(args, env=env.Environment(fault=fail, stdout=io.StringIO(),
                                                      stderr=io.StringIO()))
            if code not in (0, 2, 3):
                internal += 1
            elif code:
                failed += 1
                after = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
                changed += after != before
            corrupt += not _whole(data / "default.toml")
    finally:
        if old is None:
            os.environ.pop("D2D_DATA_DIR", None)
        else:
            os.environ["D2D_DATA_DIR"] = old
    return {"commands": n, "refused (disk full)": failed, "exit 1": internal,
            "changed on a failing exit": changed, "corrupt": corrupt}


def server_kills(folder: Path, n: int = 6, seed: int = 6) -> dict[str, int]:
    """``d2d serve`` SIGKILLed ``n`` times while a Player's page chooses face-down cards
    as fast as it can (issue 39 item 6): the file is always whole, the choice on file is
    the last one answered 200 or the one in flight (lost otherwise), and the next
    command works."""
    import json as _json
    import threading

    from tests import serve_helpers as h

    rng = random.Random(seed)
    old = os.environ.get("D2D_DATA_DIR")
    os.environ["D2D_DATA_DIR"] = str(folder / "sdata")
    lost = corrupt = internal = answered = 0
    try:
        path = h.table(folder)  # Player1 holds 7S, KD; QHv chosen for the Archer
        for _ in range(n):
            first = tomllib.loads(path.read_text("utf-8"))["players"]["Player1"]["chosen"]
            gen = h.serve(path)
            served = next(gen)
            stop = threading.Event()
            done: list[str] = []
            flight: list[str] = []

            def choose(served: h.Served = served, stop: threading.Event = stop,
                       done: list[str] = done, flight: list[str] = flight) -> None:
                data = tomllib.loads(path.read_text("utf-8"))
                now = data["players"]["Player1"]["chosen"]["card"][:-1]
                ring = ["KD", "7S", "QH"]
                while not stop.is_set():
                    card = ring[(ring.index(now) + 1) % 3] + rng.choice("^v")
                    flight[:] = [card]
                    try:
                        status, _, _ = served.get(
                            served.path("/choose", "Player1"), "POST",
                            {"Content-Type": "application/json"},
                            _json.dumps({"unit": "Archer", "card": card}).encode())
                    except Exception:  # noqa: BLE001 - reset, refused, a cut answer
                        return  # the server is gone: this one may or may not be on file
                    if status == 200:
                        done.append(card)
                        now = card[:-1]
                    flight.clear()

            th = threading.Thread(target=choose, daemon=True)
            th.start()
            time.sleep(rng.uniform(0.3, 1.5))
            served.proc.send_signal(signal.SIGKILL)
            served.proc.wait(timeout=30)
            stop.set()
            th.join(timeout=30)
            gen.close()
            answered += len(done)
            if not _whole(path):
                corrupt += 1
                continue
            on_file = tomllib.loads(path.read_text("utf-8"))["players"]["Player1"]
            card = (on_file.get("chosen") or {}).get("card")
            if card not in {*(done[-1:] or [first["card"]]), *flight}:
                lost += 1
            nxt = h.d2d("--session", str(path), "fate", "status")
            internal += nxt.returncode == 1
    finally:
        if old is None:
            os.environ.pop("D2D_DATA_DIR", None)
        else:
            os.environ["D2D_DATA_DIR"] = old
    return {"server kills": n, "choices answered 200": answered, "lost": lost,
            "corrupt": corrupt, "exit 1": internal}
