"""perfwh reads YAML as yaml.safe_load does, whichever parser PyYAML uses underneath."""
from __future__ import annotations

import datetime as dt
import subprocess

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from perfwh.core import yamltext
from perfwh.core.paths import PROJECT_ROOT


def tracked_yaml() -> list:
    listed = subprocess.run(["git", "ls-files", "*.yml", "*.yaml"], cwd=PROJECT_ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return [PROJECT_ROOT / name for name in listed]


def test_every_yaml_file_of_the_project_reads_as_safe_load_reads_it():
    files = tracked_yaml()
    assert any(path.name == "sources.yml" for path in files)
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yamltext.safe_load(text) == yaml.safe_load(text), path


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=30),
                    st.floats(allow_nan=False), st.dates(min_value=dt.date(1900, 1, 1)))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(documents, st.booleans())
def test_generated_documents_read_alike(document, flow):
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    assert yamltext.safe_load(text) == yaml.safe_load(text)


@pytest.mark.parametrize("text", ["reports: [a, b", "a: b: c", "- x\ny: 1", "key: 'open\n", "\tfile: x"])
def test_a_broken_document_fails_as_safe_load_fails(text):
    with pytest.raises(yaml.YAMLError) as ours:
        yamltext.safe_load(text)
    with pytest.raises(yaml.YAMLError) as theirs:
        yaml.safe_load(text)
    assert str(ours.value) == str(theirs.value)
