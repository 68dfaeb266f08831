#!/usr/bin/env python3
"""Checks that `skanc sql` decodes postbacks in an engine row for row as `skanc postbacks --no-verify` does.

usage: warehouse_parity.py --engine duckdb|postgres|sqlite|spark --skanc BIN (--schema SCHEMA | --schemas DIR)
                           FILE[:NAMES]... [--then (--schema SCHEMA | --schemas DIR) FILE[:NAMES]...]...
(--schemas DIR: the folder `skanc publish` writes, of one app or of many, given to both commands. Each `--then`
starts another run on the same engine, which starts once.)

For each FILE: the CLI's CSV is read; the file's lines are loaded into the engine as postback_lines(line, text)
(line numbers from 1, each line decoded as UTF-8 with U+FFFD for invalid bytes, as a text column holds it), and
with a `received` column of Unix seconds when FILE has its receipt times beside it (`NAME.times` for `NAME.jsonl`,
as `skanc serve` writes them: then the view is made with `--received-column received` and has `received_at`);
the view from `skanc sql` is created and read; every row and every column is compared as CSV cells (the engine's
values rendered as skanc renders CSV: NULL as nothing, spreadsheet formulas neutralised). NAMES, when given,
names each line of FILE; the lines named in EXCLUDED[engine] are left out of the comparison, each with its
reason printed: they are the documented differences of docs/Warehouse.md, never silent ones.
Prints one summary line per file with the time the engine took; exits 1 on any difference.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys
import time

import engines

PAYLOAD_NOT_UTF8 = ("the engine decodes an AdAttributionKit payload whose bytes are not UTF-8 to no text "
                    "(jws-unreadable); skanc shows them as U+FFFD")

# Differences an engine's JSON functions cannot avoid, by fixture name, with the reason (docs/Warehouse.md).
EXCLUDED = {
    "duckdb": {
        "not-json-trailing-comma": "DuckDB's JSON reader accepts a trailing comma",
        "duplicate-key-last-wins": "DuckDB reads the first of repeated keys; skanc the last",
        "lone-surrogate": "DuckDB refuses a lone surrogate escape when it decodes the string",
        "invalid-utf8": "a text column cannot hold invalid UTF-8: the loaded line differs from the file",
        "jws-payload-invalid-utf8": PAYLOAD_NOT_UTF8,
    },
    "postgres": {
        "whole-fine-zero-huge-exponent": "PostgreSQL's jsonb holds a number as numeric, whose exponent is bounded "
        "(the line reads as not-json)",
        "out-of-range-fine-huge-exponent": "PostgreSQL's jsonb holds a number as numeric, whose exponent is bounded "
        "(the line reads as not-json)",
        "escaped-nul": "PostgreSQL text cannot hold U+0000 (the line reads as not-json)",
        "lone-surrogate": "PostgreSQL refuses a lone surrogate escape (the line reads as not-json)",
        "invalid-utf8": "a text column cannot hold invalid UTF-8: the loaded line differs from the file",
        "jws-payload-invalid-utf8": PAYLOAD_NOT_UTF8,
    },
    "sqlite": {
        "duplicate-key-last-wins": "SQLite reads the first of repeated keys; skanc the last",
        "invalid-utf8": "a text column cannot hold invalid UTF-8: the loaded line differs from the file",
        "jws-payload-invalid-utf8": PAYLOAD_NOT_UTF8,
        "escaped-key": "SQLite matches a key as written: an escape in a key's name is not decoded",
        "escaped-nul": "SQLite text ends at U+0000",
        "lone-surrogate": "SQLite turns a lone surrogate escape into bytes that are not UTF-8",
        "deep-nesting": "SQLite's JSON parser refuses nesting deeper than 2,000 levels (the line reads as not-json)",
    },
    "spark": {
        "not-json-text-after": "Spark's try_parse_json ignores text after the object",
        "duplicate-key-last-wins": "Spark's try_parse_json refuses repeated keys (the line reads as not-json)",
        "lone-surrogate": "Spark's try_parse_json refuses a lone surrogate escape (the line reads as not-json)",
        "invalid-utf8": "a text column cannot hold invalid UTF-8: the loaded line differs from the file",
        "jws-payload-invalid-utf8": PAYLOAD_NOT_UTF8,
        "deep-nesting": "Spark's try_parse_json refuses deep nesting (the line reads as not-json)",
    },
}

# A cell a spreadsheet would evaluate gets a leading ', as skanc's CSV writer does (CSVField.neutralizingFormula):
# =, +, @, tab, carriage return, or - when the text is not a number as Swift's Double reads one.
SWIFT_DOUBLE = re.compile(
    r"-((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|0[xX][0-9a-fA-F]+(\.[0-9a-fA-F]*)?([pP][+-]?\d+)?|inf|infinity|nan)$",
    re.IGNORECASE)


CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    # As the CLI writes a CSV cell: control characters but tab and line breaks as \u{1B} (ControlCharacters),
    # then a formula neutralised.
    text = CONTROL.sub(lambda match: "\\u{%X}" % ord(match.group()), str(value))
    if text[:1] in ("=", "+", "@", "\t", "\r") or (text[:1] == "-" and not SWIFT_DOUBLE.match(text)):
        return "'" + text
    return text


def cli_rows(skanc, schema, path):
    """`schema`: the arguments that name the schemas (`[SCHEMA]` or `["--schemas", DIR]`)."""
    result = subprocess.run([skanc, "postbacks", *schema, path, "--no-verify"], capture_output=True)
    if result.returncode not in (0, 1):
        sys.exit("skanc postbacks failed: " + result.stderr.decode(errors="replace"))
    reader = csv.reader(io.StringIO(result.stdout.decode("utf-8"), newline=""))
    header = next(reader)
    return header, {int(row[0]): row for row in reader}


def split_lines(path):
    with open(path, "rb") as handle:
        data = handle.read()
    pieces = data.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    return pieces


def times_path(path):
    return path[: -len(".jsonl")] + ".times" if path.endswith(".jsonl") else None


def file_lines(path):
    lines = [(number, piece.decode("utf-8", errors="replace")) for number, piece in enumerate(split_lines(path), start=1)]
    times = times_path(path)
    if not times or not os.path.exists(times):
        return lines
    # The receipt times as written, bad ones included ("abc", "1e9", "-5"): the view must read each as the CLI
    # does (1 to 12 digits, a carriage return before the line break allowed, else no time).
    seconds = [piece.decode("utf-8", errors="replace") for piece in split_lines(times)]
    return [(number, text, seconds[number - 1] if number <= len(seconds) else None) for number, text in lines]


# The last second whose year has four digits (9999-12-31T23:59:59Z): the latest receipt time read.
LAST_SECOND = 253402300799


def check_run(engine, arguments):
    """Compares every file of one run; returns the number of rows that differ."""
    schema = [arguments.schema] if arguments.schema else ["--schemas", arguments.schemas]
    print(f"== run: {' '.join(schema)}")

    def view_sql(*options):
        command = [arguments.skanc, "sql", *schema, "--dialect", arguments.engine, *options]
        return subprocess.run(command, capture_output=True, check=True).stdout.decode("utf-8")

    plain_sql, received_sql = view_sql(), view_sql("--received-column", "received")
    failures = 0
    for spec in arguments.files:
        path, _, names_path = spec.partition(":")
        names = open(names_path).read().split("\n") if names_path else []
        header, expected = cli_rows(arguments.skanc, schema, path)
        lines = file_lines(path)
        sql = received_sql if lines and len(lines[0]) == 3 else plain_sql
        started = time.monotonic()
        columns, rows = engine.decode(lines, sql)
        elapsed = time.monotonic() - started
        if columns != header:
            print(f"{path}: columns differ\n  skanc:  {header}\n  {arguments.engine}: {columns}")
            failures += 1
            continue
        actual = {int(row[0]): [csv_cell(value) for value in row] for row in rows}
        excluded = EXCLUDED[arguments.engine]
        skipped = []
        differences = []
        for line in sorted(set(expected) | set(actual)):
            name = names[line - 1] if line - 1 < len(names) else None
            if name in excluded:
                skipped.append(f"  excluded line {line} ({name}): {excluded[name]}")
                continue
            want, got = expected.get(line), actual.get(line)
            if want != got:
                if want is None or got is None:
                    differences.append(f"  line {line} ({name}): only in {'the engine' if want is None else 'skanc'}")
                    continue
                cells = [f"{column}: skanc {a!r}, engine {b!r}" for column, a, b in zip(header, want, got) if a != b]
                differences.append(f"  line {line} ({name}): " + "; ".join(cells))
        compared = len(set(expected) | set(actual)) - len(skipped)
        print(
            f"{arguments.engine} {os.path.basename(path)}: {compared} rows equal to skanc's CSV"
            f" ({len(differences)} differ, {len(skipped)} excluded by name), engine {elapsed:.2f} s"
        )
        for line in skipped:
            print(line)
        for line in differences[:30]:
            print(line)
        failures += len(differences)
    return failures


def argument_parser():
    """The arguments of one run (Tests/Warehouse/parity.py runs them beside report_parity.py's)."""
    parser = argparse.ArgumentParser(prog="warehouse_parity.py")
    parser.add_argument("--engine", required=True, choices=sorted(EXCLUDED))
    parser.add_argument("--skanc", required=True)
    named = parser.add_mutually_exclusive_group(required=True)
    named.add_argument("--schema")
    named.add_argument("--schemas")
    parser.add_argument("files", nargs="+")
    return parser


def main():
    runs = engines.parse_runs(argument_parser(), sys.argv[1:])
    with engines.open_engine(runs[0].engine) as engine:
        failures = sum(check_run(engine, arguments) for arguments in runs)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
