"""The file is the truth (issue 30 item 4): the parsed-session cache is keyed by the
build of the code that reads a file (not by ``__version__``, which stood still for 221
commits) and authenticated with the user's own key, so a cache written by another
build or planted by someone else is never served: the file is parsed and checked."""

from __future__ import annotations

import marshal
import os
import re
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
    """The build key derived the obvious way: every reader found afresh (no index), by
    path, with its size and modification time from its own ``stat``."""
    readers = cache._closure(str(root))
    lines = sorted(f"{rel}:{(root / rel).stat().st_size}:{(root / rel).stat().st_mtime_ns}"
                   for rel in readers)
    return journal.digest("\n".join([cache._python(), *lines]).encode())


def _imported(root: Path) -> set[str]:
    """The oracle of :func:`cache.readers`, by another road than its text search: every
    module of the session package and, through Python's own parser, everything they
    import — ``import``, ``from … import`` (a module's names that are modules), a dotted
    module name as a whole string (``lazy_module``, ``import_module``) and every module
    of a package an f-string names by its prefix — with each package on the way."""
    import ast

    def file_of(dotted: str) -> str | None:
        parts = dotted.split(".")[1:]
        base = root.joinpath(*parts)
        if (base / "__init__.py").is_file():
            return str((base / "__init__.py").relative_to(root))
        if parts and base.with_suffix(".py").is_file():
            return str(base.with_suffix(".py").relative_to(root))
        return None

    found: set[str] = set()
    todo: list[str] = []

    def module(dotted: str) -> None:
        parts = dotted.split(".")
        for i in range(1, len(parts) + 1):
            rel = file_of(".".join(parts[:i]))
            if rel is None:
                return
            if rel not in found:
                found.add(rel)
                todo.append(rel)

    def package(dotted: str) -> None:
        for p in root.joinpath(*dotted.split(".")[1:]).rglob("*.py"):
            rel = str(p.relative_to(root))
            if "__pycache__" not in p.parts and rel not in found:
                found.add(rel)
                todo.append(rel)

    package("d2d_cli.session")
    module("d2d_cli.session")
    while todo:
        tree = ast.parse((root / todo.pop()).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("d2d_cli"):
                        module(alias.name)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "d2d_cli"):
                assert node.level == 0 and node.module is not None
                module(node.module)
                for alias in node.names:
                    module(f"{node.module}.{alias.name}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(r"d2d_cli(\.\w+)+", node.value):
                module(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(
                    first := node.values[0], ast.Constant) and str(first.value).startswith(
                    "d2d_cli.") and str(first.value).endswith("."):
                package(str(first.value)[:-1])
    return found


def _touch(path: Path) -> None:
    """An edit in place that keeps the size: another last byte (a newline or a space:
    the module still parses), a later time."""
    text = path.read_bytes()
    st = path.stat()
    with open(path, "r+b") as f:
        f.seek(len(text) - 1)
        f.write(b" " if text[-1:] == b"\n" else b"\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert path.stat().st_size == st.st_size


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package that cache.py reads as its own, and the user's key in its
    cache folder (an index is kept only beside a key)."""
    pkg = _package_copy(tmp_path)
    monkeypatch.setattr(cache, "__file__", str(pkg / "session" / "cache.py"))
    folder = cache._index_path(str(pkg)).parent
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    assert cache._mac_key(folder, create=True) is not None
    yield pkg
    cache.build.cache_clear()
    cache.readers.cache_clear()


def _fresh() -> str:
    cache.build.cache_clear()
    cache.readers.cache_clear()
    return cache.build()


def test_the_build_is_every_readers_name_size_and_time(
        package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40 item 3: the key is the readers' (the session package and what it
    imports) names, sizes and times, kept in an index in the user's cache folder so a
    lookup takes it after one ``stat`` of each reader and folder instead of finding the
    readers again (or, before, a walk and a ``stat`` of all ~220 files of the package).
    Every edit that can change what reads a file changes the key, as the long way finds
    it afresh: an edit in place of the same size, a module a reader starts to import and
    an edit of it, a package added beside a reader's module (which Python's finder now
    prefers, though no reader's text changed); a module nobody reads does not, and
    neither does a tampered index or one of another version. At every step the readers
    hold all that Python's parser finds imported."""
    pkg = package

    def key() -> str:
        got = _fresh()
        assert got == _long_way(pkg)  # at each step
        assert _imported(pkg) <= set(cache.readers())
        return got

    def kept() -> str:  # the next process: the index answers, nothing is read again
        with monkeypatch.context() as m:
            m.setattr(cache, "_closure", lambda root: pytest.fail("read again"))
            return _fresh()

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

    # a package beside a reader's module: Python imports it instead; no reader's text
    # changed, but its folder's time did
    sides = pkg / "rules" / "units" / "sides"
    sides.mkdir()
    (sides / "__init__.py").write_text((pkg / "rules" / "units" / "sides.py")
                                       .read_text("utf-8"), "utf-8")
    fifth = key()
    assert fifth != fourth
    assert os.path.join("rules", "units", "sides", "__init__.py") in cache.readers()

    index = cache._index_path(str(pkg))
    n = len(cache._INDEX_MAGIC)
    raw = index.read_bytes()
    body = bytearray(raw[n + 32:])
    at = body.rindex(fifth.encode())
    body[at:at + 32] = first.encode()  # the stored build made another, sealed anew wrongly
    index.write_bytes(raw[:n] + journal.digest(bytes(body)).encode() + bytes(body))
    assert key() == fifth and kept() == fifth  # not the user's seal: found afresh

    monkeypatch.setattr(cache, "_python", lambda: "another d2d or Python")
    assert key() != fifth  # another version or Python: another build, found afresh


def test_an_edit_while_the_readers_are_found_is_never_kept(
        package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The readers are found from their text, then stamped: an edit landing in between
    (a checkout, an editor's save) would pair the readers of the old text with the
    times of the new, and every later process would trust that index — a module the new
    text imports would be left out of the build for good. Found twice, the two must
    agree with nothing changed between them, or the process keeps a build of its own and
    writes no index (review of this round)."""
    pkg = package
    real = cache._closure
    calls: list[int] = []

    def edited_after_the_first(root: str) -> tuple[str, ...]:
        got = real(root)
        if not calls:  # the edit lands right after the first find
            (pkg / "rules" / "core" / "later.py").write_text("X = 1\n", "utf-8")
            inert = pkg / "inert.py"
            inert.write_text(inert.read_text("utf-8")
                             + "\nfrom d2d_cli.rules.core import later\n", "utf-8")
        calls.append(1)
        return got

    monkeypatch.setattr(cache, "_closure", edited_after_the_first)
    cache.build.cache_clear()
    own = cache.build()
    assert own.startswith("own-") and not cache._index_path(str(pkg)).exists()
    monkeypatch.setattr(cache, "_closure", real)
    found = _fresh()
    assert found == _long_way(pkg) and cache._index_path(str(pkg)).is_file()
    assert os.path.join("rules", "core", "later.py") in cache.readers()
    _touch(pkg / "rules" / "core" / "later.py")
    assert _fresh() != found  # an edit of the module the new text imports is a new build


def test_without_the_users_key_no_reader_is_read(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A first command (no key yet) or a cache folder d2d may not use reads no slot, so
    the readers are not looked for (~15 ms): the build is the process's own, and a
    second process's is another."""
    pkg = _package_copy(tmp_path)
    monkeypatch.setattr(cache, "__file__", str(pkg / "session" / "cache.py"))
    monkeypatch.setattr(cache, "_closure", lambda root: pytest.fail("read without a key"))
    try:
        one = _fresh()
        assert one.startswith("own-") and _fresh() != one
        folder = cache._index_path(str(pkg)).parent
        folder.mkdir(mode=0o700, parents=True)
        (folder / "key").mkdir(mode=0o700)  # a key that is a folder is no key
        assert cache._mac_key(folder, create=False) is None
        assert _fresh().startswith("own-")
    finally:
        cache.build.cache_clear()
        cache.readers.cache_clear()


def test_a_key_that_is_a_folder_fails_no_command(d2d, data_dir: Path) -> None:
    """A ``sessions/key`` that is a folder was read as a file (an internal error for
    every command that reads a session): it is no key — no cache, the file parsed."""
    d2d.ok("scene", "load", "combat1")
    key = dirs.cache_dir() / "sessions" / "key"
    key.unlink()
    key.mkdir(mode=0o700)
    cache._RECENT.clear()
    assert "Archer" in d2d.ok("unit", "list")


def test_the_build_indexes_are_bounded(package: Path) -> None:
    """One index per installed d2d (each checkout, pipx install, test environment): the
    folder keeps the ``CACHE_KEEP`` written last, as it keeps its caches."""
    folder = cache._index_path(str(package)).parent
    for i in range(cache.CACHE_KEEP + 3):
        old = folder / f"build-{i:032x}"
        old.write_bytes(b"an older install's index")
        os.utime(old, ns=(0, 1_000_000_000 * (i + 1)))
    _fresh()
    kept = sorted(p.name for p in folder.glob("build-*"))
    assert len(kept) == cache.CACHE_KEEP
    assert cache._index_path(str(package)).name in kept
    assert f"build-{0:032x}" not in kept  # the oldest went first


def test_the_readers_hold_the_import_graph_of_the_shape_check() -> None:
    """Every module the session's reading and checking code imports (at module level or
    inside a function), as import-linter's graph (grimp) sees it, is part of the build."""
    # grimp comes with import-linter, the layering's lint tool, which ci/oldest leaves out
    # (it needs a newer Rich than d2d's lowest); the README's test command has it
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter "
                                "(pip install -e .[dev]); ci/oldest runs without it")

    graph = grimp.build_graph("d2d_cli", cache_dir=None)
    roots = {"d2d_cli.session.reads", "d2d_cli.session.shape", "d2d_cli.session.cache",
             "d2d_cli.session.fresh", "d2d_cli.session.text",
             # a memo's answers are the build's too: what its function imports is read
             *cache.MEMO_MODULES}
    needed = set(roots)
    for r in roots:
        needed |= graph.find_upstream_modules(r)
    assert "d2d_cli.inert" in needed  # the module the hand-kept list missed
    assert "d2d_cli.rules.scale.maps" in needed  # the Move rule the Status Bar's memo keeps
    # the [rules] keys' checks (session.shape imports them): an edit of a key or of what
    # it accepts is a new build, so the cache key needs no fingerprint of the keys
    assert "d2d_cli.rules.core.options" in needed
    root = Path(cache.__file__).resolve().parent.parent
    held = {str(Path(rel).with_suffix("")).replace(os.sep, ".") for rel in cache.readers()}
    held = {("d2d_cli." + m).removesuffix(".__init__") for m in held}
    assert needed <= held, sorted(needed - held)
    assert all((root / rel).is_file() for rel in cache.readers())
