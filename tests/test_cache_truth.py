"""The file is the truth (issue 30 item 4): the parsed-session cache is keyed by the
build of the code that reads a file (not by ``__version__``, which stood still for 221
commits) and authenticated with the user's own key, so a cache written by another
build or planted by someone else is never served: the file is parsed and checked."""

from __future__ import annotations

import marshal
import os
from pathlib import Path

import pytest

from d2d_cli.session import cache, dirs, journal, shape
from tests.test_safe_state import everything


def _cache_file(session: Path) -> Path:
    return cache._cache_path(Path(os.path.realpath(session)))


@pytest.fixture
def combat(d2d, data_dir: Path) -> Path:
    d2d.ok("scene", "load", "combat1")
    return data_dir / "default.toml"


def test_a_cache_written_by_another_build_is_not_served(d2d, combat: Path) -> None:
    # The repro: a cache written by an older build (whose shape check let a unit
    # stand off the map) was served to this one, and `hit` / `round start` exited 1.
    text = combat.read_text("utf-8")
    combat.write_text(text.replace('space = "E9"', 'space = "Z99"'), "utf-8")
    with pytest.MonkeyPatch.context() as older:
        older.setattr(cache, "build", lambda: "an-older-build")
        older.setattr(shape, "_placed_on_the_board", lambda *a: None)  # its lax check
        d2d.ok("status")  # the older build reads the file and caches it
    assert _cache_file(combat).exists()
    # this build, with its own check:
    before = everything(combat.parent)
    for args in (("status",), ("round", "start"), ("unit", "show", "Archer")):
        res = d2d(*args)
        assert res.exit_code == 3, (args, res.stdout, res.stderr)
        assert "[units.Archer] space" in res.stderr
    assert everything(combat.parent) == before


def test_the_build_is_the_reading_code() -> None:
    here = cache.build()
    assert here == cache.build() and len(here) == 32  # once per process
    root = Path(cache.__file__).resolve().parent.parent
    assert all((root / rel).is_file() for rel in cache.readers())
    assert os.path.join("session", "shape.py") in cache.readers()


def _plant(session: Path, change: dict[str, object], key: bytes | None) -> None:
    """Rewrite the cache's newest slot to hold the file's digest but other data, and
    seal it as someone without the user's key would (the old unkeyed checksum), or with
    ``key``."""
    path = _cache_file(session)
    raw = path.read_bytes()
    n = len(cache._CACHE_MAGIC)
    slots = marshal.loads(raw[n + 32:])
    k, payload, root = slots[0]
    data = cache.load(payload)
    for table, value in change.items():
        data[table] = value
    body = marshal.dumps([(k, cache.dump(data), root)])
    check = journal.digest(body).encode() if key is None else cache._mac(key, body)
    path.write_bytes(cache._CACHE_MAGIC + check + body)
    # the next command reads the cache file as a new process would: not from what this
    # process (the tests' own) remembers of the slot it read or wrote last
    cache._RECENT.clear()


def test_a_planted_cache_is_never_served(d2d, combat: Path) -> None:
    # The repro: a planted cache in a shared D2D_DATA_DIR made `clock show`
    # print 999 while the file said 1.
    assert d2d.json("clock", "show")["clock"] == 1
    clock = {"value": 999, "down": False, "timed": [], "random": []}
    _plant(combat, {"clock": clock}, None)
    assert d2d.json("clock", "show")["clock"] == 1
    _plant(combat, {"clock": clock}, os.urandom(32))  # a key of someone else's
    assert d2d.json("clock", "show")["clock"] == 1


def test_the_key_is_the_users_alone(d2d, combat: Path) -> None:
    d2d.ok("clock", "show")
    key = _cache_file(combat).parent / "key"
    assert (key.stat().st_mode & 0o777) == 0o600 and len(key.read_bytes()) == 32
    folder = key.parent
    assert (folder.stat().st_mode & 0o077) == 0
    # Even a cache sealed with the right key is not read from a folder others may
    # write (they could have swapped the key), nor with a key others may read.
    clock = {"value": 999, "down": False, "timed": [], "random": []}
    for where, mode in ((folder, 0o775), (key, 0o644)):
        _plant(combat, {"clock": clock}, key.read_bytes())
        os.chmod(where, mode)
        try:
            assert d2d.json("clock", "show")["clock"] == 1
        finally:
            os.chmod(where, 0o700 if where == folder else 0o600)
    assert d2d.json("clock", "show")["clock"] == 999  # the control: sealed right, served


def test_no_cache_is_written_into_a_folder_others_may_write(d2d, combat: Path) -> None:
    folder = dirs.cache_dir() / "sessions"
    for p in folder.iterdir():
        p.unlink()
    os.chmod(folder, 0o777)
    try:
        d2d.ok("fate", "draw")
        assert list(folder.iterdir()) == []
    finally:
        os.chmod(folder, 0o700)


def _package_copy(tmp: Path) -> Path:
    """A copy of d2d's source, for a test to stand in a later build (the installed
    package is never written)."""
    import shutil

    src = Path(cache.__file__).resolve().parent.parent
    dst = tmp / "build" / "d2d_cli"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def test_a_change_to_any_reading_module_is_a_new_build(d2d, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 38 item 3: inert.py (which the shape check calls to refuse control
    # characters) was missing from the hand-kept list of readers, so a file checked by
    # an older, laxer inert.py was served from the cache by a newer one: exit 0 through
    # the cache, exit 3 without it.
    from d2d_cli import inert
    from tests.helpers import build_table

    path = build_table(d2d, tmp_path / "t.toml")
    path.write_text(path.read_text("utf-8").replace("reinforcements", "rein\u202eforcements"),
                    "utf-8")
    pkg = _package_copy(tmp_path)
    monkeypatch.setattr(cache, "__file__", str(pkg / "session" / "cache.py"))
    cache.build.cache_clear()
    cache.readers.cache_clear()
    with pytest.MonkeyPatch.context() as older:
        older.setattr(inert, "unsafe", lambda text: None)  # the older build's lax check
        d2d.ok("--session", path, "clock", "show")  # it reads the file and caches it
    assert _cache_file(path).exists()
    with open(pkg / "inert.py", "a", encoding="utf-8") as f:
        f.write("# the later build\n")
    cache.build.cache_clear()
    cache.readers.cache_clear()
    res = d2d("--session", path, "clock", "show")
    cache.build.cache_clear()
    cache.readers.cache_clear()
    assert res.exit_code == 3, res.stdout
    assert "U+202E" in res.stderr
    # and the same file, parsed without any cache, is refused the same way
    _cache_file(path).unlink()
    res = d2d("--session", path, "clock", "show")
    assert res.exit_code == 3 and "U+202E" in res.stderr


def _long_way(root: Path) -> str:
    """The build key derived the obvious way: every reader, by path, with its size and
    modification time from its own ``stat``, found afresh (no index)."""
    readers = cache._closure(str(root))
    lines = sorted(f"{rel}:{(root / rel).stat().st_size}:{(root / rel).stat().st_mtime_ns}"
                   for rel in readers)
    from d2d_cli import __version__

    return journal.digest("\n".join([__version__, *lines]).encode())


def _touch(path: Path) -> None:
    """An edit in place that keeps the size: another byte, a later time."""
    text = path.read_bytes()
    st = path.stat()
    with open(path, "r+b") as f:
        f.write(b"#" if text[:1] != b"#" else b" ")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert path.stat().st_size == st.st_size


def test_the_build_is_every_readers_name_size_and_time(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40 item 3: the key is the readers' (the session's readers and shape check
    and what they import) names, sizes and times, kept in an index in the user's cache
    folder so a lookup takes it after one ``stat`` of each reader and folder instead of
    finding the readers again (or, before, a walk and a ``stat`` of all ~220 files of
    the package). Every edit that can change what reads a file changes the key, as the
    long way finds it afresh: an edit in place of the same size, a module a reader
    starts to import and an edit of it, a package added beside a reader's module (which
    Python's finder now prefers, though no reader's text changed); a module nobody
    reads does not, and neither does a tampered index or one of another version."""
    pkg = _package_copy(tmp_path)
    monkeypatch.setattr(cache, "__file__", str(pkg / "session" / "cache.py"))
    folder = cache._index_path(str(pkg)).parent
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    user_key = cache._mac_key(folder, create=True)
    assert user_key is not None

    def key() -> str:
        cache.build.cache_clear()
        cache.readers.cache_clear()
        got = cache.build()
        assert got == _long_way(pkg)  # at each step
        return got

    def kept() -> str:  # the next process: the index answers, nothing is read again
        cache.build.cache_clear()
        cache.readers.cache_clear()
        monkeypatch.setattr(cache, "_closure", lambda root: pytest.fail("read again"))
        try:
            return cache.build()
        finally:
            monkeypatch.undo()
            monkeypatch.setattr(cache, "__file__", str(pkg / "session" / "cache.py"))

    try:
        first = key()
        assert cache._index_path(str(pkg)).is_file()
        assert kept() == first
        assert os.path.join("session", "shape.py") in cache.readers()
        assert os.path.join("inert.py") in cache.readers()  # issue 38's missing reader
        assert not any(r.startswith(("commands", "serve", "operations"))
                       for r in cache.readers())  # no front end reads a session file

        _touch(pkg / "session" / "shape.py")
        second = key()
        assert second != first and kept() == second

        (pkg / "rules" / "core" / "later.py").write_text("X = 1\n", "utf-8")
        assert key() == second  # nobody imports it: the same readers, the same build
        assert os.path.join("rules", "core", "later.py") not in cache.readers()

        inert = pkg / "inert.py"
        inert.write_text(inert.read_text("utf-8") + "\nfrom d2d_cli.rules.core import later\n",
                         "utf-8")
        third = key()
        assert os.path.join("rules", "core", "later.py") in cache.readers()
        _touch(pkg / "rules" / "core" / "later.py")
        fourth = key()
        assert len({first, second, third, fourth}) == 4 and kept() == fourth

        # a package beside a reader's module: Python imports it instead; no reader's
        # text changed, but its folder's time did
        sides = pkg / "rules" / "units" / "sides"
        sides.mkdir()
        (sides / "__init__.py").write_text((pkg / "rules" / "units" / "sides.py")
                                           .read_text("utf-8"), "utf-8")
        fifth = key()
        assert fifth != fourth
        assert os.path.join("rules", "units", "sides", "__init__.py") in cache.readers()

        index = cache._index_path(str(pkg))
        raw = bytearray(index.read_bytes())
        raw[-1] ^= 1  # tampered: the seal no longer holds, so it is not read
        index.write_bytes(bytes(raw))
        assert key() == fifth and kept() == fifth
        import d2d_cli

        monkeypatch.setattr(cache, "__version__", "0.0.0-another")
        monkeypatch.setattr(d2d_cli, "__version__", "0.0.0-another")  # the long way's
        assert key() != fifth  # another version: another build, found afresh
    finally:
        cache.build.cache_clear()
        cache.readers.cache_clear()


def test_the_readers_hold_the_import_graph_of_the_shape_check() -> None:
    """Every module the session's reading and checking code imports (at module level or
    inside a function), as import-linter's graph (grimp) sees it, is part of the build."""
    # grimp comes with import-linter, the layering's lint tool, which ci/oldest leaves out
    # (it needs a newer Rich than d2d's lowest); the README's test command has it
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter "
                                "(pip install -e .[dev]); ci/oldest runs without it")

    graph = grimp.build_graph("d2d_cli", cache_dir=None)
    roots = {"d2d_cli.session.reads", "d2d_cli.session.shape", "d2d_cli.session.cache",
             "d2d_cli.session.fresh", "d2d_cli.session.text"}
    needed = set(roots)
    for r in roots:
        needed |= graph.find_upstream_modules(r)
    assert "d2d_cli.inert" in needed  # the module the hand-kept list missed
    root = Path(cache.__file__).resolve().parent.parent
    held = {str(Path(rel).with_suffix("")).replace(os.sep, ".") for rel in cache.readers()}
    held = {("d2d_cli." + m).removesuffix(".__init__") for m in held}
    assert needed <= held, sorted(needed - held)
    assert all((root / rel).is_file() for rel in cache.readers())
