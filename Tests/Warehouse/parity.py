#!/usr/bin/env python3
"""Runs warehouse_parity.py's and report_parity.py's checks on one engine, which starts once for all of them.

usage: parity.py --engine duckdb|postgres|sqlite|spark --skanc BIN (decode|report) ARGS [--then (decode|report) ARGS]...

Each run is `decode` followed by warehouse_parity.py's arguments or `report` followed by report_parity.py's,
without --engine and --skanc, which the first part gives for all. The runs print and compare exactly as in their
own scripts, in the order given. For an engine that is slow to start (Spark's JVM starts and compiles its hot code
in about 45 s of CPU), the decoding and the report parity share that once. Exits 1 on any difference.
"""
import argparse
import sys

import engines
import report_parity
import warehouse_parity

CHECKS = {"decode": warehouse_parity, "report": report_parity}


def parse(argv):
    """The engine, the skanc binary and each run as (check, its parsed arguments)."""
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].removeprefix("usage: "))
    parser.add_argument("--engine", required=True, choices=sorted(warehouse_parity.EXCLUDED))
    parser.add_argument("--skanc", required=True)
    shared, rest = parser.parse_known_args(argv)
    runs = []
    for segment in engines.split_runs(rest):
        if not segment or segment[0] not in CHECKS:
            parser.error("each run starts with 'decode' or 'report'")
        check = CHECKS[segment[0]]
        arguments = check.argument_parser().parse_args(["--engine", shared.engine, "--skanc", shared.skanc]
                                                       + segment[1:])
        runs.append((check, arguments))
    return shared.engine, runs


def main():
    engine_name, runs = parse(sys.argv[1:])
    created = {"drops": ""}
    failures = 0
    with engines.open_engine(engine_name) as engine:
        for check, arguments in runs:
            if check is report_parity:
                failures += report_parity.check_run(engine, arguments, created)
            else:
                # An earlier report run's views depend on the decoding view this run replaces (PostgreSQL will
                # not drop it under them): they go first.
                if created["drops"]:
                    engine.execute(created["drops"])
                    created["drops"] = ""
                failures += warehouse_parity.check_run(engine, arguments)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
