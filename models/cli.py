"""Subcommands of the models stage: models, size."""
from __future__ import annotations


def register(sub) -> None:
    pass
