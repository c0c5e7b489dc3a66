"""YAML read exactly as ``yaml.safe_load`` reads it, with libyaml's parser where PyYAML has it.

The data dictionary and sources.yml are read by every build, check and add; PyYAML's
pure-Python parser takes about 0.04 s for the two, libyaml 0.003 s.
"""
from __future__ import annotations

import yaml

_LIBYAML = getattr(yaml, "CSafeLoader", None)


def safe_load(text: str):
    """``yaml.safe_load(text)``. The same SafeConstructor and resolver build the same objects
    whichever parser reads the text; a document libyaml refuses is read again by the pure-Python
    parser, so that an error says what ``yaml.safe_load`` says of it."""
    if _LIBYAML is not None:
        try:
            return yaml.load(text, Loader=_LIBYAML)  # noqa: S506 - a safe loader
        except yaml.YAMLError:
            pass
    return yaml.safe_load(text)
