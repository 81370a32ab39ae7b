"""session/ through one door (issue 38 item 4): the facade's ``__all__`` is the whole
interface (the import-linter contract ``session-facade`` refuses
``d2d_cli.session.<module>`` outside the package: tests/test_layers.py), and "a lookup
creates the default session" has one home, ``session.lookup``."""

from __future__ import annotations

from pathlib import Path

import pytest

from d2d_cli import session
from d2d_cli.errors import NotFound


def test_every_name_of_the_interface_exists() -> None:
    assert all(hasattr(session, n) for n in session.__all__)
    assert "lookup" in session.__all__ and "read_with_log" in session.__all__


def test_the_contract_is_declared() -> None:
    import tomllib

    root = Path(session.__file__).resolve().parent.parent.parent
    contracts = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"]
    facade = next(c for c in contracts if c["id"] == "session-facade")
    assert facade["type"] == "protected"
    assert facade["protected_modules"] == ["d2d_cli.session.*"]
    assert facade["allowed_importers"] == ["d2d_cli.session"]


def test_a_read_never_creates_only_a_lookup_does(data_dir: Path, tmp_path: Path) -> None:
    default = session.resolve(None)
    with pytest.raises(NotFound):
        session.read(default)
    assert not default.exists()
    data = session.lookup(None, seed=3)  # the default session: created on first use
    assert default.exists() and data["schema"] == 1
    with pytest.raises(NotFound, match="no session 'other'"):
        session.lookup("other")  # any other name is refused, not created
    assert not session.resolve("other").exists()
    path = tmp_path / "here.toml"  # a .toml path in an existing folder is created
    assert session.lookup(str(path))["schema"] == 1 and path.exists()
