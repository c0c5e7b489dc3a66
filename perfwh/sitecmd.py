"""Subcommands of the publishing stage: notebooks, site."""
from __future__ import annotations


def register(sub) -> None:
    pass
