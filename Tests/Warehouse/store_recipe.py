#!/usr/bin/env python3
"""Runs docs/Warehouse.md's DuckDB recipe for a store of `skanc serve` and compares it with `skanc postbacks`.

usage: store_recipe.py --skanc BIN --schema SCHEMA --store DIR

The recipe is the first ```sql block under the heading "A store of `skanc serve`", run as written in a copy of
the store's folder named `store`. Its view (`skanc sql --received-column received`) must give, row for row in
file-name and line order, the received_at, status and transaction_id that `skanc postbacks --no-verify` gives
over the segments. Prints one line and exits 1 on any difference.
"""
import argparse
import csv
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import duckdb


def recipe():
    text = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "Warehouse.md")).read()
    section = text[text.index("## A store of `skanc serve`"):]
    return re.search(r"```sql\n(.*?)```", section, re.S).group(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skanc", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--store", required=True)
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="skanc-store-recipe-")
    try:
        shutil.copytree(arguments.store, os.path.join(work, "store"))
        segments = sorted(glob.glob(os.path.join(work, "store", "postbacks", "*", "*.jsonl")))
        cli = subprocess.run([arguments.skanc, "postbacks", arguments.schema, "--no-verify", *segments],
                             capture_output=True)
        if cli.returncode not in (0, 1):
            sys.exit("skanc postbacks failed: " + cli.stderr.decode(errors="replace"))
        rows = list(csv.DictReader(io.StringIO(cli.stdout.decode("utf-8"), newline="")))
        expected = [(row["received_at"] or None, row["status"], row["transaction_id"] or None) for row in rows]
        view = subprocess.run([arguments.skanc, "sql", arguments.schema, "--dialect", "duckdb", "--received-column",
                               "received"], capture_output=True, check=True).stdout.decode("utf-8")
        os.chdir(work)
        connection = duckdb.connect()
        connection.execute(recipe())
        connection.execute(view)
        actual = connection.execute(
            "SELECT received_at, status, transaction_id FROM decoded_postbacks ORDER BY line").fetchall()
        differing = [index for index, (a, b) in enumerate(zip(expected, actual)) if a != tuple(b)]
        print(f"store recipe: {len(actual)} rows from {len(segments)} segments, {len(expected)} from skanc postbacks,"
              f" {len(differing)} differ")
        for index in differing[:10]:
            print(f"  row {index + 1}: skanc {expected[index]}, duckdb {actual[index]}")
        sys.exit(1 if differing or len(expected) != len(actual) else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
