#!/usr/bin/env python3
"""Times `skanc sql` views against `skanc postbacks --no-verify` on the same file, in one run.

usage: warehouse.py [--lines N] [--engines duckdb,sqlite,postgres,spark] [--skanc BIN]
                    [--frameworks N]
Generates N benchmark postbacks (default 200,000), decodes them with skanc (best of 3), then, per engine, loads
the lines into postback_lines and times `SELECT * FROM decoded_postbacks` read to the end (best of 3; the first
run of Spark includes planning the query). Prints one line per engine: load seconds, decode seconds, ratio.

--frameworks N times, instead, SKAdNetwork against AdAttributionKit: N lines of each made by `skanc simulate
--postbacks --sign-with` (real signed stanzas, whose payload the views base64-decode, unlike the benchmark
file's), Schemas/Game.skan, the same users and tiers; per engine the decode seconds of each and their ratio.
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
    parser.add_argument("--frameworks", type=int)
    arguments = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="skanc-warehouse-bench-")
    if arguments.frameworks:
        return frameworks(arguments, directory)
    path = os.path.join(directory, "postbacks.jsonl")
    with open(path, "w") as handle:
        subprocess.run([sys.executable, os.path.join(HERE, "generate_postbacks.py"), str(arguments.lines)],
                       stdout=handle, check=True)
    skanc = best(3, lambda: subprocess.run(
        [arguments.skanc, "postbacks", arguments.schema, path, "--no-verify"], stdout=subprocess.DEVNULL))
    print(f"{arguments.lines} lines; skanc postbacks --no-verify: {skanc:.3f} s (best of 3)")
    expected = summary_counts(subprocess.run(
        [arguments.skanc, "postbacks", arguments.schema, path, "--no-verify", "--summary-only"],
        capture_output=True).stdout.decode())
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
    # The recipes of docs/Warehouse.md, end to end over the file: DuckDB reading it in place, the PySpark job
    # over a directory holding it. Each must count the statuses skanc counts.
    for name, run in [("duckdb-file", duckdb_file), ("spark-job", spark_job)]:
        if name.split("-")[0] not in arguments.engines.split(","):
            continue
        sql = subprocess.run([arguments.skanc, "sql", arguments.schema, "--dialect", name.split("-")[0]],
                             capture_output=True, check=True).stdout.decode()
        started = time.monotonic()
        counts = run(path, sql, directory)
        elapsed = time.monotonic() - started
        agree = "statuses as skanc's" if counts == expected else f"statuses DIFFER: {counts} vs {expected}"
        print(f"{name:11} end to end {elapsed:7.2f} s   = {elapsed / skanc:6.1f}x skanc's time; {agree}")


def frameworks(arguments, directory):
    """SKAdNetwork lines against AdAttributionKit stanzas, per engine."""
    schema = os.path.join(HERE, "..", "Schemas", "Game.skan")
    files = {}
    for framework in ("skadnetwork", "adattributionkit"):
        path = os.path.join(directory, framework + ".jsonl")
        with open(path, "w") as handle:
            subprocess.run([arguments.skanc, "simulate", schema, os.path.join(HERE, "..", "Tests", "Fixtures",
                            "journeys", "game.jsonl"), "--postbacks", "--users", str(arguments.frameworks // 2),
                            "--tiers", "1:1,2:1,3:2", "--framework", framework, "--sign-with",
                            os.path.join(HERE, "..", "Tests", "Fixtures", "keys", "rfc6979-test-key.pem")],
                           stdout=handle, stderr=subprocess.DEVNULL, check=True)
        files[framework] = file_lines(path)
    print(f"{len(files['skadnetwork'])} SKAdNetwork lines, {len(files['adattributionkit'])} AdAttributionKit "
          "stanzas (signed, decodable payloads), Schemas/Game.skan")
    for name in arguments.engines.split(","):
        sql = subprocess.run([arguments.skanc, "sql", schema, "--dialect", name], capture_output=True,
                             check=True).stdout.decode()
        times = {}
        with engines.open_engine(name) as engine:
            for framework, lines in files.items():
                engine.load(lines, sql)
                times[framework] = best(3, engine.read)
        print(f"{name:9} SKAdNetwork {times['skadnetwork']:7.2f} s   AdAttributionKit "
              f"{times['adattributionkit']:7.2f} s   = {times['adattributionkit'] / times['skadnetwork']:5.2f}x")


def summary_counts(summary):
    """{status: count} from `skanc postbacks --summary-only`: `ok: N`, then `  status: N` under `problems:`."""
    counts, in_problems = {}, False
    for line in summary.splitlines():
        if line.startswith("ok: "):
            counts["ok"] = int(line.split()[1])
        elif line.startswith("problems:"):
            in_problems = True
        elif in_problems and line.startswith("  "):
            status, count = line.strip().split(": ")
            counts[status] = int(count)
        else:
            in_problems = False
    return {status: count for status, count in counts.items() if count}


def status_counts(output):
    """{status: count} from `status count` lines."""
    return {line.split()[0]: int(line.split()[1]) for line in output.splitlines() if len(line.split()) == 2}


def duckdb_file(path, sql, directory):
    import duckdb

    connection = duckdb.connect()
    connection.execute(
        "CREATE TABLE postback_lines AS SELECT row_number() OVER () AS line, column0 AS text "
        "FROM read_csv(?, columns = {'column0': 'VARCHAR'}, delim = chr(1), quote = '', escape = '', "
        "header = false, auto_detect = false)", [path])
    connection.execute(sql)
    rows = connection.execute("SELECT status, count(*) FROM decoded_postbacks GROUP BY status").fetchall()
    return {status: count for status, count in rows}


def spark_job(path, sql, directory):
    lake = os.path.join(directory, "lake")
    os.makedirs(lake, exist_ok=True)
    os.link(path, os.path.join(lake, "postbacks.jsonl"))
    sql_path = os.path.join(directory, "decode.spark.sql")
    with open(sql_path, "w") as handle:
        handle.write(sql)
    output = subprocess.run([sys.executable, os.path.join(HERE, "spark_job.py"), lake, sql_path],
                            capture_output=True, check=True).stdout.decode()
    return status_counts(output)


main()
