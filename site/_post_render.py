"""Quarto's post-render step for the perfwh site (`project.post-render` in _quarto.yml).

Quarto runs it from the project root with QUARTO_PROJECT_OUTPUT_DIR set; perfwh's fallback
renderer calls the same function. It adds what the pages need besides themselves: the Vega
libraries (site/assets/vendor/), the downloads (site/downloads/) and the root index.html.
"""
import os
from pathlib import Path

from _perfwh_env import ensure_perfwh

ensure_perfwh()

from perfwh.publish.site.output import finish_output  # noqa: E402

finish_output(Path(os.environ.get("QUARTO_PROJECT_OUTPUT_DIR", "site/_site")).resolve(),
              os.environ.get("PERFWH_DB"))
