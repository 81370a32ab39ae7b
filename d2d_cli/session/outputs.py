"""Files the user names (``board --svg FILE``, ``sim --log FILE``, ``char export -o
FILE``, exports): the one writer of them (docs/architecture.md "Guarantees").

* **Never clobbers.** An existing file (or symlink, or anything at the name) is
  refused without ``force`` (exit 2); the check and the write are one step — the new
  file is hard-linked into place, which fails if something appeared meanwhile.
* **Never follows a symlink.** The text goes to a temp file in the target's folder
  that is renamed over the name: a symlink there is replaced (with ``force``), the file
  it pointed at is untouched; a dangling link is a name that exists.
* **Atomic.** A reader sees the old file or the new one; a full disk, a quota or any
  other write error removes the temp file and is exit 2 naming the file, with nothing
  half-written and the old file (if any) as it was.
* **Never over d2d's own files.** A session file, its ``.bak``, journal, lock,
  ``current`` pointer or cache — recognised by their names in d2d's folders, by the
  paths the caller protects (the running session's) and by their first bytes (a session
  or journal anywhere) — is refused even with ``force``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from d2d_cli.errors import BadInput, fault
from d2d_cli.session.files import sync_dir

# What d2d keeps beside a session: a name ending like this is never an output.
COMPANIONS = (".toml", ".bak", ".journal", ".lock", ".cache", ".tmp", ".oldbak")
# A session file starts with its schema line (comments may come first); a journal line
# with eight hex digits of CRC and a JSON object.
_SESSION_HEAD = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*schema[ \t]*=")
_JOURNAL_HEAD = re.compile(rb"\A[0-9a-f]{8}[\[{]")
_NAME_MAX = 60
_PATH_MAX = 160


def short(name: str, limit: int = _NAME_MAX) -> str:
    """A name cut for a message: ``limit`` characters at most, with an ellipsis."""
    from d2d_cli.inert import short as cut

    return cut(name, limit)


def _path(path: Path) -> str:
    """A path for a message: long ones cut (a 20,000-character name is shown once, cut)."""
    return short(str(path), _PATH_MAX)


def write(path: Path | str, data: str | bytes, *, force: bool = False,
          protect: Iterable[Path | str] = ()) -> Path:
    """Write ``data`` to the file ``path`` names, as the module doc says; returns the
    path. ``protect``: files that must never be replaced (the running session)."""
    target = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    shown = _path(target)
    if not target.name or target.name in (".", ".."):
        raise BadInput(f"{shown} is not a file name")
    folder = target.parent
    try:
        folder_st = os.stat(folder)
    except OSError:
        raise BadInput(f"cannot write {shown}: no folder {_path(folder)} (d2d creates "
                       "the file, never folders)") from None
    if not stat.S_ISDIR(folder_st.st_mode):
        raise BadInput(f"cannot write {shown}: {_path(folder)} is not a folder")
    old = _lstat(target)
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise BadInput(f"{shown} is a folder: give a file name")
    _refuse_own(target, old, protect)
    if old is not None and not force:
        raise BadInput(f"{shown} exists: add --force to replace it")
    if old is not None and not (stat.S_ISREG(old.st_mode) or stat.S_ISLNK(old.st_mode)):
        raise BadInput(f"{shown} is not a regular file: d2d replaces only files")
    # a new file gets the umask's mode; a replaced file keeps its own
    mode = stat.S_IMODE(old.st_mode) if old is not None and stat.S_ISREG(old.st_mode) \
        else None
    _sweep(folder)
    tmp = folder / f".{target.name[:100]}.{os.getpid()}.out.tmp"
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NOFOLLOW", 0), 0o666 if mode is None else 0o600)
        try:
            fault("output")
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        if old is None:
            os.link(tmp, target)  # fails if anything appeared at the name meanwhile
            os.unlink(tmp)
        else:
            os.replace(tmp, target)  # a symlink is replaced, never followed
        sync_dir(folder)
    except FileExistsError:
        _drop(tmp)
        raise BadInput(f"{shown} exists: add --force to replace it") from None
    except OSError as e:
        _drop(tmp)
        why = "the disk is full" if e.errno in (errno.ENOSPC, errno.EDQUOT) else \
            (e.strerror or str(e))
        raise BadInput(f"cannot write {shown}: {why} (nothing was written)") from None
    except BaseException:
        _drop(tmp)
        raise
    return target


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise BadInput(f"cannot write {_path(path)}: {e.strerror or e}") from None


def _refuse_own(target: Path, old: os.stat_result | None,
                protect: Iterable[Path | str]) -> None:
    """Refuse a name that is (or points at) one of d2d's own files."""
    from d2d_cli.session import dirs

    shown = _path(target)
    where = Path(os.path.realpath(target.parent)) / target.name
    pointed = Path(os.path.realpath(target))
    keep: set[Path] = set()
    for p in protect:
        real = Path(os.path.realpath(p))
        keep |= {real, *(real.with_name(real.name + s) for s in (".bak", ".journal", ".lock"))}
    own = {Path(os.path.realpath(d))
           for d in (dirs.data_dir(), dirs.state_dir(), dirs.cache_dir())}
    cache = Path(os.path.realpath(dirs.cache_dir()))  # every file under it is d2d's own
    if where in keep or pointed in keep or cache in where.parents or (
            cache in pointed.parents) or (
            (where.parent in own or pointed.parent in own)
            and (where.name == "current" or where.name.endswith(COMPANIONS)
                 or pointed.name.endswith(COMPANIONS))):
        raise BadInput(f"{shown} is one of d2d's own files (a session, its .bak, journal, "
                       "lock or cache): d2d never writes an output over it")
    if old is not None and _looks_own(pointed):
        raise BadInput(f"{shown} is a d2d session or journal: d2d never writes an output "
                       "over it, even with --force")


def _looks_own(path: Path) -> bool:
    try:  # O_NONBLOCK: a FIFO named as the output must not hang this look
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False  # not a file d2d wrote
        head = os.read(fd, 4096)
    except OSError:
        return False
    finally:
        os.close(fd)
    return bool(_SESSION_HEAD.match(head) or _JOURNAL_HEAD.match(head))


def _drop(tmp: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


_TMP = re.compile(r"\A\..*\.(\d+)\.out\.tmp\Z", re.S)


def _sweep(folder: Path) -> None:
    """Remove the temp files of writes killed before they could (``.NAME.PID.out.tmp``
    whose process is gone): a killed export leaves nothing after the next write here."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".out.tmp")]
    except OSError:
        return
    for name in names:
        m = _TMP.match(name)
        if m is None or int(m.group(1)) == os.getpid() or _alive(int(m.group(1))):
            continue
        with contextlib.suppress(OSError):
            st = os.lstat(folder / name)
            if stat.S_ISREG(st.st_mode) and st.st_uid == getattr(os, "getuid", lambda: -1)():
                os.unlink(folder / name)


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill would end it there: never swept
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True
