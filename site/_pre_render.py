"""Quarto's pre-render step for the perfwh site (`project.pre-render` in _quarto.yml); perfwh's
fallback renderer runs the same script.

It generates what depends on which reports the warehouse holds, so that adding a report family
(or filing a submission) needs no edit of any site file:
  - site/report-<family>.qmd, one page per family, oldest report first;
  - site/_reports.yml, the navbar's Reports menu, which _quarto.yml includes as a metadata file
    (Quarto reads the project's configuration again after the pre-render step).
Both are generated files (.gitignore); the warehouse is $PERFWH_DB, else the default.
"""
from _perfwh_env import ensure_perfwh

ensure_perfwh()

from perfwh.publish.site.generate import write_report_pages  # noqa: E402

write_report_pages()
