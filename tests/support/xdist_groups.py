"""pytest-xdist's `--dist loadgroup`, working again under pytest 9.

xdist (3.8) tells its controller a test's group by appending ``@group`` to the test's node id
in each worker (``item._nodeid = ...``). pytest 9 keeps a node's id as a structured ``_id``
and ignores ``_nodeid``, so no group reached the controller: the Spark tests ran on both
workers (two JVMs, the shared Spark fixtures built twice) and a module's fixtures were set
up again on every worker that got one of its tests. This does what xdist meant, after it,
where its suffix is missing; when xdist or pytest fixes it, the suffix is there and nothing
changes.
"""
from __future__ import annotations

import pytest


def group_of(item) -> str | None:
    """The xdist_group names of ``item``, joined as xdist joins them, or None."""
    names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
             for mark in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) if names else None


class GroupSuffix:
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not config.getvalue("loadgroup"):
            return
        from _pytest.nodeid import NodeId

        for item in items:
            group = group_of(item)
            if group and not item.nodeid.endswith(f"@{group}"):
                item._id = NodeId.parse(f"{item.nodeid}@{group}")


def install(config) -> None:
    """In pytest-xdist's workers (`--dist loadgroup`), where collection happens."""
    if getattr(config.option, "loadgroup", False):
        config.pluginmanager.register(GroupSuffix(), "perfwh-xdist-groups")
