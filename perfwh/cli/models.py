"""Subcommands of the models stage: models, size.

Nothing heavy is imported here: numpy, scipy, nbclient and the rest are imported inside the
command functions, so that `perfwh sql` does not pay for them.
"""
from __future__ import annotations

import argparse
import math
import re
import sys

from perfwh.core.values import dumps

from .common import add_db, add_no_wait, json_error, warehouse_to_read, warehouse_to_update


def _models(args) -> int:
    from perfwh.core.lock import LockBusy
    from perfwh.stages.build import BuildError
    from perfwh.stages.models import build_models

    try:
        summary = build_models(warehouse_to_update(args.db), parquet=not args.no_parquet, wait=not args.no_wait)
    except (BuildError, LockBusy) as err:
        print(f"perfwh models: error: {err}", file=sys.stderr)
        print("perfwh models: the warehouse is unchanged", file=sys.stderr)
        return 1
    if args.quiet:
        return 0
    models = ", ".join(f"{n} {m}" for m, n in summary.by_model.items())
    print(f"perfwh models: {summary.fitted} series fitted ({models}) of {summary.series} series with "
          f"a CPU cost and a size; {summary.points} points predicted: "
          f"{summary.points - summary.excluded} leaving their size out, {summary.excluded} excluded from "
          "the fits for error findings (predicted by the line of the others)")
    if summary.unfitted:
        print(f"perfwh models: {summary.unfitted} series with three or more sizes not fitted: "
              "error findings left fewer than three usable sizes (table model_unfitted)")
    if not summary.findings_table:
        print("perfwh models: this warehouse has no dq_findings (built with --rules none): "
              "no point was excluded")
    print("leave-one-size-out accuracy of CPU ms/msg:")
    for scope, points, mdape, inside, inside_99, width in summary.accuracy:
        print(f"  {scope:32s} {points or 0:4d} points  median abs. error {_pct(mdape)}  "
              f"inside 90 % interval {_pct(inside)}, 99 % {_pct(inside_99)}  median 90 % width {_pct(width)}")
    print("perfwh models: wrote model_fits, model_predictions, model_accuracy, model_unfitted to "
          f"{warehouse_to_update(args.db)}")
    return 0


def _pct(value) -> str:
    """A percentage for the summary, or n/a where there is none (a scope with no usable point)."""
    # model_accuracy keeps its percentages to the hundredth (DECIMAL(12, 2)): shown as kept, not
    # rounded a second time (98.45 of 98.4496 would show as 98.5)
    return "   n/a" if value is None else f"{value:6.2f} %"


def _size(args) -> int:
    from models.sizing import SizeQuery, SizingError, render_text, size_in
    from perfwh.warehouse.db import NotAWarehouse

    def refuse(message: str, status: int) -> int:
        if args.json:  # the output stays valid JSON, errors included
            print(json_error(f"perfwh size: {message}", status, "perfwh size"))
        print(f"perfwh size: error: {message}", file=sys.stderr)
        return status

    try:
        rate = _rate(args.rate)
    except argparse.ArgumentTypeError as err:
        return refuse(str(err), 2)
    query = SizeQuery(scenario=args.scenario, size=args.size, rate=rate, product=args.product,
                      version=args.version, platform=args.platform, config=args.config,
                      persistent=args.persistent, report=args.report, cores=args.cores,
                      utilisation=args.utilisation,
                      allow_flagged=args.allow_flagged)
    try:
        answer = size_in(warehouse_to_read(args.db), query)
    except NotAWarehouse as err:
        return refuse(str(err), 2)
    except SizingError as err:
        return refuse(str(err), err.status)
    if args.json:
        print(dumps(answer, indent=2))
    else:
        print(render_text(answer))
    return answer["status"]


def _fraction(text: str) -> float:
    try:
        value = float(text.rstrip("%")) / (100.0 if text.endswith("%") else 1.0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction such as 0.8 or 80%") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: utilisation must lie in (0, 1], e.g. 0.8 or 80%")
    return value


def _whole(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number of cores")
    return int(text)


_PLAIN_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")


def _rate(text: str) -> float:
    from ingest.vocabulary import MAX_RATE
    from models.sizing import MIN_RATE

    # digits as written in plain ASCII: float() also reads "1_000" and other scripts' digits;
    # else a rate as a submission's cell prints one (1k, 2.5M, 1,200, 500 msgs/s: the unit table).
    # A negative number reads, to be told the range rather than that it is no number.
    if _PLAIN_NUMBER.fullmatch(text):
        value = float(text)
    else:
        value = _printed_rate(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of messages per second (e.g. "
                                             "500, 1200.5, 1e6, 1.5k or 2M)")
    if not math.isfinite(value) or not MIN_RATE <= value <= MAX_RATE:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the rate must be a number of messages per second from {MIN_RATE:g} to "
            f"{MAX_RATE:.0e}")
    return value


def _printed_rate(text: str) -> float | None:
    """A rate written as a submission's cell may print it, in msgs/s; None if it is none."""
    from decimal import Decimal

    from ingest.records import ParseError
    from ingest.units import UNITS, quantity

    try:
        read = quantity(text, "rate")
    except ParseError:
        return None
    return float(Decimal(read.number) * Decimal(UNITS["rate"][read.unit][1]))


# Readers: an interruption has nothing to undo (main's message says so).
_size.writes = False

def register(sub) -> None:
    p = sub.add_parser(
        "models", help="fit CPU cost against message size per series (model_fits, model_predictions)",
        description="Fit every series (report, product, version, platform, scenario, persistence, "
                    "configuration) with three or more message sizes: a linear model (fixed cost per "
                    "message plus cost per KB), each size predicted from the others by the report's "
                    "mixed model with calibrated 90 % and 99 % intervals, and a power law for comparison. Points with error findings (dq_findings) are left out and marked. Writes "
                    "model_fits, model_predictions, model_accuracy and model_unfitted into the warehouse "
                    "atomically.")
    add_db(p)
    p.add_argument("--no-parquet", action="store_true", help="skip refreshing the Parquet lake (it is emptied: it would no longer match the warehouse)")
    p.add_argument("-q", "--quiet", action="store_true", help="no output")
    add_no_wait(p)
    p.set_defaults(func=_models)

    p = sub.add_parser(
        "size", help="cores needed for a rate at a message size, with a 90 %% interval",
        description="Cores needed to process --rate messages per second of --size through a scenario, "
                    "from the fitted cost model of the one matching series: cores = rate x CPU ms per "
                    "message / 1000 / utilisation, with a 90 % prediction interval. Matching is "
                    "case-insensitive: scenario by exact name, else substring; product exactly; version "
                    "by prefix (11 matches 11.0.0.4); platform, config and report by substring. A "
                    "series with error findings on its costs (or on a platform whose costs are "
                    "systematically flagged) is refused unless --allow-flagged. "
                    "Exit status: 0 answered, 1 no single matching series (or no models), 2 bad input.",
        epilog="example: perfwh size --scenario 'HTTP XMLNSC ESQL Transformation' --size 50KB --rate 500 "
               "--product ACE --version 11 --platform linux --config 'docker cores 2'")
    p.add_argument("--scenario", required=True, help="scenario name or part of it")
    p.add_argument("--size", required=True, help="message size, e.g. 50KB, 2k, 1384B, 2MB (1k = 1024)")
    p.add_argument("--rate", required=True,
                   help="messages per second to sustain (a number from 1e-6 to 1e9)")
    p.add_argument("--product", help="product as the warehouse names it, e.g. WBIMB, IIB, ACE, MQ Appliance, "
                                     "MessageSight, or a submission's")
    p.add_argument("--version", help="product version or its leading part, e.g. 11 or 10.0.0")
    p.add_argument("--platform", help="platform or part of it, e.g. linux, windows, aix, openshift")
    p.add_argument("--config", help="configuration or part of it, e.g. 'docker cores 2', 'T-shirt Large', "
                                    "'flow instances 1'")
    persistence = p.add_mutually_exclusive_group()
    persistence.add_argument("--persistent", dest="persistent", action="store_const", const=True,
                             default=None, help="persistent messages only")
    persistence.add_argument("--non-persistent", dest="persistent", action="store_const", const=False,
                             help="non-persistent messages only")
    p.add_argument("--report", help="report source file or part of it, e.g. iib10")
    p.add_argument("--cores", type=_whole,
                   help="only series measured on a server of this many cores (a lab's 2-core and "
                        "8-core machines of one platform name are two series)")
    p.add_argument("--utilisation", type=_fraction, default=0.8,
                   help="CPU utilisation to plan for: a fraction such as 0.8, or a percentage with its "
                        "sign such as 80%% (default 0.8)")
    p.add_argument("--allow-flagged", action="store_true",
                   help="answer from a series even if error findings flag its costs (its flagged "
                        "points stay out of the fit; the findings are named as warnings)")
    p.add_argument("--json", action="store_true",
                   help="print a JSON object (cores, cores_low, cores_high, series_id, warnings, ...)")
    add_db(p)
    p.set_defaults(func=_size)
