#!/usr/bin/env python3
"""Checks that `skanc sql --report` computes in an engine the figures `skanc report --format json --no-verify` prints.

usage: report_parity.py --engine duckdb|postgres|sqlite|spark --skanc BIN --schema SCHEMA [--by LIST]
                        [--zero-is-null] [--cost COST.csv] [--decoded-table] FILE[:NAMES]...
                        [--then --schema SCHEMA [--by LIST] [--zero-is-null] [--cost COST.csv] FILE[:NAMES]...]...

Each `--then` starts another run on the same engine, which starts once. With --decoded-table (always on Spark and
SQLite), the report views read a table of the decoded rows (`--view decoded_table`), as docs/Reports.md advises for
an engine that plans every view with the whole decoding inlined.

For each FILE: the lines are loaded as postback_lines(line, text), the decoding view from `skanc sql` and the report
views from `skanc sql --report` are created, and the views are read back into the JSON report's shape (groups by
their key, per window the counts, tiers, cases and coarse values, the revenue totals and ranges, and the rows not
ok); every number is compared with the CLI's JSON (amounts as the doubles both are nearest to). NAMES, when given,
names each line of FILE: the lines warehouse_parity.EXCLUDED lists for the engine (docs/Warehouse.md's documented
differences) are left out of both reports, each printed with its reason. Prints one summary line per file and each
difference; exits 1 on any. With --cost, the cost file is loaded as the table cost_rows (every column text but
spend), `skanc report --cost` is compared with the views of `skanc sql --report --cost-table cost_rows`: each
group's spend, cost rows, cost per install and return on ad spend (ratios to 12 significant digits: the engine
sums the spend as doubles, skanc exactly). The view `report_wide` is compared with `skanc report --format csv
--wide`: the same columns (but the CLI's estimates and names) and every cell (amounts to 12 significant digits).
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time

import engines
import warehouse_parity


# Engines whose report reads a table of the decoded rows (`--report --view decoded_table`), as docs/Reports.md
# advises there: Spark plans every view with the whole decoding inlined and runs out of memory planning the
# report's joins; SQLite decodes every line again for each of the report's views.
MATERIALIZED = ("spark", "sqlite")


def integer(value):
    return int(value) if value not in (None, "") else 0


def amount(value):
    return None if value in (None, "") else float(value)


def significant(value):
    return None if value in (None, "") else float(f"{float(value):.12g}")


def cost_table_sql(engine_name, path):
    """The cost file as a table `cost_rows`: text columns, spend a double."""
    text = {"duckdb": "VARCHAR", "sqlite": "TEXT", "postgres": "TEXT", "spark": "STRING"}[engine_name]
    double = {"duckdb": "DOUBLE", "sqlite": "REAL", "postgres": "DOUBLE PRECISION", "spark": "DOUBLE"}[engine_name]
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    quote = lambda value: "'" + value.replace("'", "''") + "'"
    values = ", ".join(f"({quote(r['network'])}, {quote(r['campaign'])}, {quote(r['day'])}, {float(r['spend'])!r}, "
                       f"{quote(r['currency'])})" for r in rows)
    return (f"DROP TABLE IF EXISTS cost_rows;\nCREATE TABLE cost_rows (network {text}, campaign {text}, day {text}, "
            f"spend {double}, currency {text});\nINSERT INTO cost_rows VALUES {values};\n")


def engine_report(engine, keys, with_cost=False):
    """The report's JSON shape, read from the views."""
    groups = {}

    def group(row, columns):
        values = dict(zip(columns, row))
        by = {}
        for key in keys:
            if key == "campaign_column":
                continue
            if key == "campaign":  # named by the column it came from, as the CLI names it
                by[values["campaign_column"]] = none_or_text(values["campaign"])
            else:
                by[key] = none_or_text(values[key])
        name = json.dumps(by, sort_keys=True)
        entry = groups.setdefault(name, {"by": by, "by_window": {}, "revenue": {}})
        return entry, values

    def window(entry, values):
        return entry["by_window"].setdefault(str(integer(values["window_number"])), {
            "tiers": {}, "fields": {}, "coarse": {}})

    def rows_of(view):
        columns, rows = engine.query(f"SELECT * FROM {view}")
        for row in rows:
            yield group(row, columns)

    for entry, values in rows_of("report_windows"):
        figures = window(entry, values)
        for name in ("postbacks", "contributed", "reengagements", "installs", "with_fine_value", "with_coarse_value",
                     "without_value"):
            figures[name] = integer(values[name])
    # Per window, a count per value: (view, the JSON member, the view's column of the value).
    for view, member, column in (("report_tiers", "tiers", "tier"), ("report_coarse", "coarse", "coarse")):
        for entry, values in rows_of(view):
            window(entry, values)[member][values[column]] = integer(values["postbacks"])
    for entry, values in rows_of("report_cases"):
        window(entry, values)["fields"].setdefault(values["field"], {})[values["case_name"]] = integer(values["postbacks"])
    for entry, values in rows_of("report_revenue"):
        entry["revenue"][values["field"]] = {
            "field": values["field"], "currency": none_or_text(values["currency"]),
            "postbacks": integer(values["postbacks"]), "low": amount(values["low"]), "mid": amount(values["mid"]),
            "high": amount(values["high"]), "ranges": {}}
    for entry, values in rows_of("report_revenue_ranges"):
        entry["revenue"][values["field"]]["ranges"][integer(values["range_index"])] = {
            "case": values["case_name"], "range": values["range_text"], "postbacks": integer(values["postbacks"]),
            "low": amount(values["low"]), "mid": amount(values["mid"]), "high": amount(values["high"])}
    # The installs' bounds, and the re-engagements' apart (null in the CLI's JSON where a group has none).
    for member in ("installs", "reengagements"):
        for entry, values in rows_of(f"report_{member}"):
            entry["revenue"][values["field"]][member] = {
                "postbacks": integer(values["postbacks"]), "with_fine_value": integer(values["with_fine_value"]),
                "from_coarse": {}, "without_value": integer(values["without_value"]), "low": amount(values["low"]),
                "high": amount(values["high"])}
        for entry, values in rows_of(f"report_{member}_coarse"):
            entry["revenue"][values["field"]][member]["from_coarse"][values["coarse"]] = {
                "coarse": values["coarse"], "postbacks": integer(values["postbacks"]), "low": amount(values["low"]),
                "high": amount(values["high"])}
    for entry in groups.values():
        for revenue in entry["revenue"].values():
            for member in ("installs", "reengagements"):
                shares = revenue[member]["from_coarse"]
                revenue[member]["from_coarse"] = [shares[name] for name in ("low", "medium", "high") if name in shares]
            if revenue["reengagements"]["postbacks"] == 0:
                revenue["reengagements"] = None
    if with_cost:
        for entry in groups.values():
            entry["cost"] = None
        for entry, values in rows_of("report_cost"):
            entry["cost"] = {"spend": significant(values["spend"]), "rows": integer(values["cost_rows"]),
                             "per_install": significant(values["per_install"]), "return_on_spend": {}}
        for entry, values in rows_of("report_return_on_spend"):
            entry["cost"]["return_on_spend"][values["field"]] = {
                "field": values["field"], "low": significant(values["low"]),
                "high": significant(values["high"])}
        for entry in groups.values():
            if entry["cost"] is not None:
                order = [revenue["field"] for revenue in entry["revenue"].values()]
                entry["cost"]["return_on_spend"] = [entry["cost"]["return_on_spend"][field] for field in order]
    columns, rows = engine.query("SELECT * FROM report_not_ok")
    not_ok = {dict(zip(columns, row))["status"]: integer(dict(zip(columns, row))["lines"]) for row in rows}
    for entry in groups.values():
        entry["postbacks"] = sum(figures["postbacks"] for figures in entry["by_window"].values())
        entry["revenue"] = [dict(revenue, ranges=[revenue["ranges"][index] for index in sorted(revenue["ranges"])])
                            for revenue in entry["revenue"].values()]
    return groups, not_ok


def none_or_text(value):
    return None if value in (None, "") else str(value)


def cli_report(skanc, schema, path, options):
    result = subprocess.run([skanc, "report", schema, path, "--no-verify", "--format", "json", *options],
                            capture_output=True)
    if result.returncode != 0:
        sys.exit("skanc report failed: " + result.stderr.decode(errors="replace"))
    report = json.loads(result.stdout)
    groups = {}
    for entry in report["groups"]:
        if entry.get("cost") is not None:
            cost = entry["cost"]
            cost["spend"], cost["per_install"] = significant(cost["spend"]), significant(cost["per_install"])
            for ratio in cost["return_on_spend"]:
                # The estimate is the CLI's alone; the hard bounds are compared.
                ratio.pop("estimate", None)
                for bound in ("low", "high"):
                    ratio[bound] = significant(ratio[bound])
        # Names come from a file only the CLI reads.
        entry.pop("name", None)
        for revenue in entry["revenue"]:
            # The estimates are the CLI's alone (a model, not a sum a view keeps); the hard bounds are compared,
            # the installs' and the re-engagements' apart.
            bounded = [revenue["installs"]] + ([revenue["reengagements"]] if revenue["reengagements"] else [])
            for item in bounded:
                item.pop("estimate_without_fine_value", None)
                item.pop("estimate", None)
            for item in [revenue] + revenue["ranges"] + [share for item in bounded
                                                         for share in [item] + item["from_coarse"]]:
                for bound in ("low", "mid", "high"):
                    if bound in item:
                        item[bound] = None if item[bound] is None else float(item[bound])
        groups[json.dumps(entry["by"], sort_keys=True)] = entry
    return groups, report["not_ok"]


def spreadsheet_safe(text):
    """A key cell as the CLI's CSV writes it (CSVField.escaped before quoting): control characters but tab and
    line breaks as `\\u{HEX}`, and a leading `'` on a cell a spreadsheet would evaluate."""
    if text is None:
        return None
    text = "".join(f"\\u{{{ord(c):X}}}" if (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F) and c not in "\t\r\n"
                   else c for c in text)
    if text[:1] in ("=", "+", "@", "\t", "\r"):
        return "'" + text
    if text[:1] == "-":
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def wide_rows(columns, rows, counts, escape=False):
    """Rows of a wide table keyed by their key cells (the columns before `installs`): each cell as text (keys,
    written as the CLI's CSV writes them when `escape`), a whole number (counts) or a double to 12 significant
    digits (amounts and ratios), empty as None."""
    keys = columns[:columns.index("installs")]
    key = spreadsheet_safe if escape else none_or_text
    table = {}
    for row in rows:
        values = dict(zip(columns, row))
        cells = {name: key(none_or_text(value)) if name in keys else integer(value) if name in counts
                 else significant(value) for name, value in values.items()}
        table[json.dumps([cells[name] for name in keys])] = cells
    return table


def cli_wide(skanc, schema, path, options):
    """`skanc report --format csv --wide`'s columns and rows, but those only the CLI has (the names file's `name`,
    the estimates)."""
    result = subprocess.run([skanc, "report", schema, path, "--no-verify", "--format", "csv", "--wide", *options],
                            capture_output=True)
    if result.returncode != 0:
        sys.exit("skanc report --wide failed: " + result.stderr.decode(errors="replace"))
    reader = csv.reader(io.StringIO(result.stdout.decode("utf-8"), newline=""))
    header = next(reader)
    kept = [index for index, name in enumerate(header) if name != "name" and not name.endswith("_estimate")]
    return [header[index] for index in kept], [[row[index] for index in kept] for row in reader]


def cli_install_days(skanc, schema, path, by):
    """`skanc report --by G,install_day --format json`'s cohorts for the groupings `by` less `day`: per key and
    day, the bounds and the allocation (to 2 decimals, as the CLI rounds it). Days no install can lie on (every
    figure but the through counts 0) are left out, as the view leaves them."""
    others = [name for name in by.split(",") if name != "day"]
    result = subprocess.run([skanc, "report", schema, path, "--no-verify", "--format", "json", "--by",
                             ",".join(others + ["install_day"])], capture_output=True)
    if result.returncode != 0:
        sys.exit("skanc report --by install_day failed: " + result.stderr.decode(errors="replace"))
    days = {}
    for cohort in json.loads(result.stdout)["cohorts"]:
        for day in cohort["days"]:
            if day["installs_high"] == 0:
                continue
            key = json.dumps([cohort["by"], day["day"]], sort_keys=True)
            days[key] = {name: day[name] for name in ("installs_low", "installs_high", "through_low",
                                                      "through_high")}
            days[key]["allocated"] = round(day["allocated"], 2)
    return days


def engine_install_days(engine, keys):
    """`report_install_days` in the shape of `cli_install_days`."""
    columns, rows = engine.query("SELECT * FROM report_install_days")
    days = {}
    for row in rows:
        values = dict(zip(columns, row))
        by = {}
        for key in keys:
            if key in ("campaign_column", "day"):
                continue
            by[values["campaign_column"] if key == "campaign" else key] = none_or_text(values[key])
        name = json.dumps([by, str(values["install_day"])], sort_keys=True)
        days[name] = {column: integer(values[column]) for column in ("installs_low", "installs_high",
                                                                    "through_low", "through_high")}
        days[name]["allocated"] = round(float(values["allocated"]) + 1e-9, 2)
    return days


def differences(expected, actual, path=""):
    """Where two JSON values differ, as paths."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in expected or key not in actual:
                found.append(f"{path}/{key}: only in {'the engine' if key not in expected else 'skanc'}")
            else:
                found += differences(expected[key], actual[key], f"{path}/{key}")
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: {len(expected)} items in skanc, {len(actual)} in the engine"]
        return [item for index, pair in enumerate(zip(expected, actual))
                for item in differences(pair[0], pair[1], f"{path}[{index}]")]
    return [] if expected == actual else [f"{path}: skanc {expected!r}, engine {actual!r}"]


def without_excluded(spec, engine):
    """FILE, or for FILE:NAMES a copy of FILE without the lines the engine is known to decode otherwise."""
    path, _, names_path = spec.partition(":")
    if not names_path:
        return path
    names = open(names_path).read().split("\n")
    excluded = warehouse_parity.EXCLUDED[engine]
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    kept = []
    for number, line in enumerate(lines):
        name = names[number] if number < len(names) else None
        if name in excluded:
            print(f"  excluded line {number + 1} ({name}): {excluded[name]}")
        else:
            kept.append(line)
    handle, copy = tempfile.mkstemp(prefix="skanc-report-", suffix="-" + os.path.basename(path))
    with os.fdopen(handle, "wb") as out:
        out.write(b"\n".join(kept))
    return copy


def check_run(engine, arguments, created):
    """Compares every file of one run; returns the number of differences. `created["drops"]`: the DROP VIEW
    statements of the report views last created in the engine (by an earlier run, or this one's last file)."""
    print(f"== run: --schema {arguments.schema}" + (f" --by {arguments.by}" if arguments.by else "")
          + (" --zero-is-null" if arguments.zero_is_null else "") + (" --cost" if arguments.cost else "")
          + (" --decoded-table" if arguments.decoded_table else ""))
    options = (["--by", arguments.by] if arguments.by else []) + (["--zero-is-null"] if arguments.zero_is_null else [])
    cli_options = options + (["--cost", arguments.cost] if arguments.cost else [])
    options += ["--cost-table", "cost_rows"] if arguments.cost else []
    def decode_sql(*received):
        return subprocess.run([arguments.skanc, "sql", arguments.schema, "--dialect", arguments.engine, *received],
                              capture_output=True, check=True).stdout.decode("utf-8")

    # A file with its receipt times (NAME.times beside NAME.jsonl) loads a `received` column: `--by day` reads it.
    decode, decode_received = decode_sql(), decode_sql("--received-column", "received")
    report_sql = subprocess.run([arguments.skanc, "sql", arguments.schema, "--dialect", arguments.engine, "--report",
                                 *options], capture_output=True, check=True).stdout.decode("utf-8")
    table_report_sql = subprocess.run(
        [arguments.skanc, "sql", arguments.schema, "--dialect", arguments.engine, "--report", "--view", "decoded_table",
         *options], capture_output=True, check=True).stdout.decode("utf-8")
    # Without --by, skanc groups by PostbackGrouping.defaults: the ad network, then the campaign.
    keys = ["ad_network_id", "campaign_column", "campaign"] if not arguments.by else []
    for name in (arguments.by or "").split(","):
        if name:
            keys += ["campaign_column", "campaign"] if name == "campaign" else [name]
    # PostgreSQL will not replace the decoding view while the report's views depend on it: they go first, the
    # views last created (an earlier run's options may have made views this one does not, `report_cost` say).
    drops = "".join(line + "\n" for line in report_sql.split("\n") if line.startswith("DROP VIEW"))
    failures = 0
    copies = []
    for spec in arguments.files:
        path = without_excluded(spec, arguments.engine)
        if path != spec:
            copies.append(path)
        expected_groups, expected_not_ok = cli_report(arguments.skanc, arguments.schema, path, cli_options)
        started = time.monotonic()
        engine.execute(created["drops"] + drops)
        if arguments.cost:
            engine.execute(cost_table_sql(arguments.engine, arguments.cost))
        lines = warehouse_parity.file_lines(path)
        engine.load(lines, decode_received if lines and len(lines[0]) == 3 else decode)
        materialized = arguments.decoded_table or arguments.engine in MATERIALIZED
        if materialized:
            engine.execute("DROP TABLE IF EXISTS decoded_table;\n"
                           "CREATE TABLE decoded_table AS SELECT * FROM decoded_postbacks")
        engine.execute(table_report_sql if materialized else report_sql)
        created["drops"] = drops
        actual_groups, actual_not_ok = engine_report(engine, keys, with_cost=bool(arguments.cost))
        elapsed = time.monotonic() - started
        found = differences({"groups": expected_groups, "not_ok": expected_not_ok},
                            {"groups": actual_groups, "not_ok": actual_not_ok})
        # Grouped by the receipt day: the install-day cohorts too.
        install_days = {}
        if "day" in keys:
            install_days = cli_install_days(arguments.skanc, arguments.schema, path, arguments.by)
            found += differences({"install_days": install_days},
                                 {"install_days": engine_install_days(engine, keys)})
        # The wide table: the same columns in the same order, and every row's cells.
        wide_columns, wide = cli_wide(arguments.skanc, arguments.schema, path, cli_options)
        engine_columns, engine_wide = engine.query("SELECT * FROM report_wide")
        counts = wide_columns[wide_columns.index("installs"):wide_columns.index("without_value") + 1]
        found += differences({"wide_columns": wide_columns, "wide": wide_rows(wide_columns, wide, counts)},
                             {"wide_columns": list(engine_columns),
                              "wide": wide_rows(list(engine_columns), engine_wide, counts, escape=True)})
        costed = sum(1 for group in expected_groups.values() if group.get("cost"))
        reengaged = sum(1 for group in expected_groups.values()
                        if any(revenue["reengagements"] for revenue in group["revenue"]))
        print(f"{arguments.engine} {os.path.basename(spec.partition(':')[0])}: {len(expected_groups)} groups and "
              f"{sum(expected_not_ok.values())} rows not ok compared, {len(found)} differ, engine {elapsed:.2f} s, "
              f"{reengaged} groups with re-engagements, {len(wide)} wide rows"
              + (f", {len(install_days)} install days" if "day" in keys else "")
              + (f", {costed} groups with cost" if arguments.cost else ""))
        for line in found[:30]:
            print("  " + line)
        failures += len(found)
    for copy in copies:
        os.remove(copy)
    return failures




def argument_parser():
    """The arguments of one run (Tests/Warehouse/parity.py runs them beside warehouse_parity.py's)."""
    parser = argparse.ArgumentParser(prog="report_parity.py")
    parser.add_argument("--engine", required=True, choices=sorted(warehouse_parity.EXCLUDED))
    parser.add_argument("--skanc", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--by")
    parser.add_argument("--zero-is-null", action="store_true")
    parser.add_argument("--cost")
    parser.add_argument("--decoded-table", action="store_true")
    parser.add_argument("files", nargs="+")
    return parser


def main():
    runs = engines.parse_runs(argument_parser(), sys.argv[1:])
    created = {"drops": ""}
    with engines.open_engine(runs[0].engine) as engine:
        failures = sum(check_run(engine, arguments, created) for arguments in runs)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
