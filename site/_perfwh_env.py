"""Make perfwh importable in Quarto's pre- and post-render steps.

Quarto runs a project's `.py` scripts with $QUARTO_PYTHON, else the `python3` on PATH; `perfwh
site` sets QUARTO_PYTHON to the project's interpreter, but a plain `quarto render` from a shell
without the virtual environment would run them with a Python that has no perfwh. Then the step
restarts itself with the project's own interpreter (.venv/bin/python, made by `make`).
"""
import os
import sys
from pathlib import Path

_RESTARTED = "PERFWH_RENDER_STEP_RESTARTED"


def ensure_perfwh() -> None:
    try:
        import perfwh  # noqa: F401
        return
    except ImportError:
        pass
    venv = Path(__file__).resolve().parent.parent / ".venv"
    python = venv / "bin" / "python"
    if python.exists() and Path(sys.prefix).resolve() != venv.resolve() \
            and not os.environ.get(_RESTARTED):
        os.environ[_RESTARTED] = "1"
        os.execv(str(python), [str(python), *sys.argv])
    sys.exit(f"{sys.argv[0]}: perfwh cannot be imported by {sys.executable}: run `make` first "
             "(it makes .venv), or render with QUARTO_PYTHON=.venv/bin/python quarto render")
