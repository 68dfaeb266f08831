#!/usr/bin/env python3
"""Times `skanc sql` views against `skanc postbacks --no-verify` on the same file, in one run.

usage: warehouse.py [--lines N] [--engines duckdb,sqlite,postgres,spark] [--skanc BIN]
Generates N benchmark postbacks (default 200,000), decodes them with skanc (best of 3), then, per engine, loads
the lines into postback_lines and times `SELECT * FROM decoded_postbacks` read to the end (best of 3; the first
run of Spark includes planning the query). Prints one line per engine: load seconds, decode seconds, ratio.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Warehouse"))
import engines  # noqa: E402
from warehouse_parity import file_lines  # noqa: E402


def best(runs, action):
    times = []
    for _ in range(runs):
        started = time.monotonic()
        action()
        times.append(time.monotonic() - started)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--engines", default="duckdb,sqlite,postgres,spark")
    parser.add_argument("--skanc", default=os.path.join(HERE, "..", ".build", "release", "skanc"))
    parser.add_argument("--schema", default=os.path.join(HERE, "..", "Schemas", "Shop.skan"))
    arguments = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="skanc-warehouse-bench-")
    path = os.path.join(directory, "postbacks.jsonl")
    with open(path, "w") as handle:
        subprocess.run([sys.executable, os.path.join(HERE, "generate_postbacks.py"), str(arguments.lines)],
                       stdout=handle, check=True)
    skanc = best(3, lambda: subprocess.run(
        [arguments.skanc, "postbacks", arguments.schema, path, "--no-verify"], stdout=subprocess.DEVNULL))
    print(f"{arguments.lines} lines; skanc postbacks --no-verify: {skanc:.3f} s (best of 3)")
    lines = file_lines(path)
    for name in arguments.engines.split(","):
        sql = subprocess.run([arguments.skanc, "sql", arguments.schema, "--dialect", name],
                             capture_output=True, check=True).stdout.decode()
        with engines.open_engine(name) as engine:
            started = time.monotonic()
            engine.load(lines, sql)
            load = time.monotonic() - started
            decode = best(3, engine.read)
        print(f"{name:9} load {load:7.2f} s   decode {decode:7.2f} s   = {decode / skanc:6.1f}x skanc's time")


main()
