"""Quarto's post-render step for the perfwh site (`project.post-render` in _quarto.yml).

Quarto runs it from the project root with QUARTO_PROJECT_OUTPUT_DIR set; perfwh's fallback
renderer calls the same function. It adds what the pages need besides themselves: the Vega
libraries (site/assets/vendor/), the downloads (site/downloads/) and the root index.html.
"""
import os
from pathlib import Path

from perfwh.publish.site.output import finish_output

finish_output(Path(os.environ.get("QUARTO_PROJECT_OUTPUT_DIR", "site/_site")).resolve(),
              os.environ.get("PERFWH_DB"))
