"""Subcommands of the data-quality stage: rules, check, add."""
from __future__ import annotations


def register(sub) -> None:
    pass
