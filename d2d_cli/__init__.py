"""d2d — the Narrator's companion for Drawn to Destiny."""

__version__ = "0.1.0"
