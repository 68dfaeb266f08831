#!/usr/bin/env python3
"""Times `skanc postbacks` against the Python and DuckDB baselines on the same generated file, in one run.

usage: Benchmarks/run.py [--lines N] [--repeat R] [--signed-lines N] [--generator PATH] [--python-baseline PATH]
                         [--duckdb-baseline PATH] [--verify-baseline PATH]
Builds skanc in release mode, generates N postbacks (default 1,000,000) once into .build/benchmarks/, runs
each program R times (default 3): skanc postbacks (verifying, the default) and --no-verify, the Python and
DuckDB baselines, and `cat` (reading the file), and prints the best wall time, throughput, peak memory and the
ratios; then, on one thread, the scan floor (Benchmarks/ScanFloor) and skanc --no-verify against `cat`.
Then `skanc report` (JSON) against `skanc postbacks` on the same file, both without verification (best of R).
Then it times skanc on the same postbacks with every transaction-id replaced, once by time-based (version 1)
UUIDs in sequence and once by random ones: the duplicate index must not care how identifiers were made
(the run fails when the version-1 file takes more than twice as long). Last, it signs every postback with a
benchmark key (Benchmarks/sign_postbacks.py, once) and times the verified decode (every signature checked) and
the verified report on its first --signed-lines postbacks (default 200,000): skanc against the script an
analyst would write with Python and OpenSSL, one process per core (Benchmarks/baseline_verify.py), best of R,
and the verified report once.
The generator and baselines default to the ones in this folder; other ones with the same command lines
(generator: N SEED > file; Python: stdin to stdout; DuckDB: IN OUT) can be named instead.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def measure(command, stdin_path=None, stdout_path=os.devnull):
    """Runs a command; returns (wall seconds, peak resident memory in MiB, exit status)."""
    with open(stdin_path or os.devnull, "rb") as stdin, open(stdout_path, "wb") as stdout:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--generator", default=os.path.join(HERE, "generate_postbacks.py"))
    parser.add_argument("--python-baseline", default=os.path.join(HERE, "baseline_python.py"))
    parser.add_argument("--duckdb-baseline", default=os.path.join(HERE, "baseline_duckdb.py"))
    parser.add_argument("--signed-lines", type=int, default=200_000)
    parser.add_argument("--verify-baseline", default=os.path.join(HERE, "baseline_verify.py"))
    args = parser.parse_args()

    subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    skanc = os.path.join(ROOT, ".build", "release", "skanc")
    work = os.path.join(ROOT, ".build", "benchmarks")
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, f"postbacks-{args.lines}-{os.path.basename(args.generator)}.jsonl")
    if not os.path.exists(data):
        with open(data + ".tmp", "wb") as out:
            subprocess.run([sys.executable, args.generator, str(args.lines)], stdout=out, check=True)
        os.rename(data + ".tmp", data)
    size = os.path.getsize(data) / 1e6
    schema = os.path.join(ROOT, "Schemas", "Shop.skan")
    output = os.path.join(work, "out.csv")

    programs = [
        ("skanc postbacks", [skanc, "postbacks", schema, data], None),
        ("skanc --no-verify", [skanc, "postbacks", schema, data, "--no-verify"], None),
        ("Python json baseline", [sys.executable, args.python_baseline], data),
        ("DuckDB baseline", [sys.executable, args.duckdb_baseline, data, output], None),
        # Reading the file and nothing else: the floor any decoder of it stands on.
        ("cat", ["cat", data], None),
    ]
    results = {}
    for name, command, stdin_path in programs:
        # `cat FILE > /dev/null`: reading the file, without writing it anywhere.
        target = os.devnull if name == "cat" else output
        runs = [measure(command, stdin_path, target) for _ in range(args.repeat)]
        if name.startswith("skanc"):
            # Exit 1 means some line has a problem status (expected in generated data); anything else failed.
            ok = all(status in (0, 1) for _, _, status in runs)
        else:
            ok = all(status == 0 for _, _, status in runs)
        if not ok:
            print(f"{name} failed: exit statuses {[status for _, _, status in runs]}", file=sys.stderr)
            return 1
        results[name] = (min(seconds for seconds, _, _ in runs), max(memory for _, memory, _ in runs))

    print(f"input: {args.lines:,} postbacks, {size:.1f} MB ({os.path.relpath(args.generator, ROOT)}); best of {args.repeat} runs")
    print(f"{'program':<22} {'seconds':>8} {'MB/s':>8} {'peak MiB':>9}")
    for name, (seconds, memory) in results.items():
        print(f"{name:<22} {seconds:8.3f} {size / seconds:8.1f} {memory:9.1f}")
    for label, name in [("skanc", "skanc postbacks"), ("--no-verify", "skanc --no-verify")]:
        ours = results[name][0]
        print(f"{label + ' vs Python json:':<26} {results['Python json baseline'][0] / ours:5.1f}x faster")
        print(f"{label + ' vs DuckDB:':<26} {results['DuckDB baseline'][0] / ours:5.1f}x faster")
    print(f"{'--no-verify vs cat:':<26} {results['skanc --no-verify'][0] / results['cat'][0]:5.1f}x the time")
    floor_against_cat(skanc, schema, data, args.repeat, results)
    report_against_postbacks(skanc, schema, data, args.repeat)
    status = compare_identifier_kinds(skanc, schema, data, work, args.repeat)
    return status or verified_decode(skanc, schema, data, work, args.signed_lines, args.repeat, args.verify_baseline)


def floor_against_cat(skanc, schema, data, repeat, results):
    """Times the floor under plain decoding (Benchmarks/ScanFloor: reading the file, finding its lines, testing every
    byte eight at a time, copying each line, on one thread) and skanc --no-verify on one thread, beside `cat`."""
    subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE, "--product", "scan-floor"],
                   check=True, stdout=subprocess.DEVNULL)
    scan_floor = os.path.join(HERE, ".build", "release", "scan-floor")
    printed = subprocess.run([scan_floor, data, str(repeat)], capture_output=True, text=True, check=True).stdout
    floor = float(re.search(r"best of \d+: ([0-9.e-]+) s", printed).group(1))
    one = [measure([skanc, "postbacks", schema, data, "--no-verify", "--threads", "1"]) for _ in range(repeat)]
    one_thread = min(seconds for seconds, _, _ in one)
    cat = results["cat"][0]
    print(f"{'one thread':<22} {'seconds':>8} {'x cat':>8}")
    print(f"{'scan floor':<22} {floor:8.3f} {floor / cat:8.1f}")
    print(f"{'skanc --no-verify':<22} {one_thread:8.3f} {one_thread / cat:8.1f}")
    print(f"skanc --no-verify, one thread, vs the floor: {one_thread / floor:.1f}x")


def report_against_postbacks(skanc, schema, data, repeat, verify=()):
    """Times `skanc report --format json` and `skanc postbacks` on the same file; returns their best times."""
    verify = list(verify) or ["--no-verify"]
    times = {}
    for name, command in [("skanc postbacks", [skanc, "postbacks", schema, data, *verify]),
                          ("skanc report", [skanc, "report", schema, data, "--format", "json", *verify])]:
        runs = [measure(command) for _ in range(repeat)]
        if not all(status in (0, 1) for _, _, status in runs):
            raise SystemExit(f"{name} failed: exit statuses {[status for _, _, status in runs]}")
        times[name] = min(seconds for seconds, _, _ in runs)
    label = "verified" if verify != ["--no-verify"] else "--no-verify"
    print(f"report vs postbacks ({label}): postbacks {times['skanc postbacks']:.3f} s, report "
          f"{times['skanc report']:.3f} s, {times['skanc report'] / times['skanc postbacks']:.2f}x")
    return times


def verified_decode(skanc, schema, data, work, lines, repeat, baseline):
    """Signs the benchmark file once, then times, on its first `lines` postbacks, the verified decode against the
    Python+OpenSSL script with one process per core, and the verified report against the verified decode."""
    signed = data + ".signed.jsonl"
    key_file = signed + ".key"
    if not os.path.exists(signed) or not os.path.exists(key_file):
        with open(key_file, "w") as key:
            subprocess.run([sys.executable, os.path.join(HERE, "sign_postbacks.py"), data, signed + ".tmp"],
                           stderr=key, check=True)
        os.rename(signed + ".tmp", signed)
    key = open(key_file).read().strip()
    part = os.path.join(work, f"signed-{lines}.jsonl")
    if not os.path.exists(part):
        with open(signed, "rb") as source, open(part + ".tmp", "wb") as out:
            for _, line in zip(range(lines), source):
                out.write(line)
        os.rename(part + ".tmp", part)
    keys = ["--public-key", f"skadnetwork={key},jws:bench/0={key}"]
    command = [skanc, "postbacks", schema, part, *keys]
    runs = [measure(command) for _ in range(repeat)]
    seconds, memory = min(run[0] for run in runs), max(run[1] for run in runs)
    summary = subprocess.run(command + ["--summary-only"], capture_output=True, text=True).stdout
    signatures = next(line for line in summary.splitlines() if line.startswith("signatures:"))
    count = int(summary.split()[2])
    processes = os.cpu_count() or 1
    script = [sys.executable, baseline, part, key, str(processes)]
    script_runs = [measure(script) for _ in range(repeat)]
    # skanc exits 1 when some line has a problem status (the generated file has some); the script exits 0.
    if not all(run[2] in (0, 1) for run in runs) or not all(run[2] == 0 for run in script_runs):
        print(f"a verified run failed: skanc {[run[2] for run in runs]}, script {[run[2] for run in script_runs]}",
              file=sys.stderr)
        return 1
    script_seconds = min(run[0] for run in script_runs)
    print(f"verified decode, {count:,} signed postbacks (best of {repeat}):")
    print(f"  skanc postbacks --public-key  {seconds:8.3f} s  {count / seconds:9,.0f} per second, peak {memory:.1f} MiB")
    print(f"  Python+OpenSSL, {processes} processes  {script_seconds:8.3f} s  {count / script_seconds:9,.0f} per second")
    print(f"  skanc vs Python+OpenSSL: {script_seconds / seconds:.2f}x faster")
    print(f"  {signatures}")
    report = [skanc, "report", schema, part, "--format", "json", *keys]
    report_seconds, _, report_status = measure(report)
    print(f"verified report: {report_seconds:.3f} s, {report_seconds / seconds:.2f}x the verified decode")
    return 0 if report_status in (0, 1) else 1


def with_transaction_ids(source, target, make_id):
    """Copies the postbacks in `source` to `target` with each transaction-id replaced by make_id(n)."""
    if os.path.exists(target):
        return
    pattern = re.compile(rb'"transaction-id":"[^"]*"')
    counter = iter(range(1 << 62))
    with open(source, "rb") as lines, open(target + ".tmp", "wb") as out:
        for line in lines:
            out.write(pattern.sub(lambda _: b'"transaction-id":"' + make_id(next(counter)).encode() + b'"', line))
    os.rename(target + ".tmp", target)


def version_1_uuid(n):
    """The n-th of a run of time-based UUIDs made 100 ns apart on one machine: only the low time bits move."""
    time = 0x1EE_5A3B_0000_0000 + n
    return "%08x-%04x-1%03x-9a2b-0242ac130003" % (time & 0xFFFF_FFFF, (time >> 32) & 0xFFFF, (time >> 48) & 0x0FFF)


def compare_identifier_kinds(skanc, schema, data, work, repeat):
    rng = random.Random(7)
    files = {
        "version-1 UUIDs": os.path.join(work, os.path.basename(data) + ".v1.jsonl"),
        "random UUIDs": os.path.join(work, os.path.basename(data) + ".random.jsonl"),
    }
    with_transaction_ids(data, files["version-1 UUIDs"], version_1_uuid)
    with_transaction_ids(data, files["random UUIDs"], lambda _: str(uuid.UUID(int=rng.getrandbits(128))))
    times = {}
    for kind, path in files.items():
        runs = [measure([skanc, "postbacks", schema, path]) for _ in range(repeat)]
        times[kind] = min(seconds for seconds, _, _ in runs)
    print(f"{'transaction-ids':<22} {'seconds':>8}")
    for kind, seconds in times.items():
        print(f"{kind:<22} {seconds:8.3f}")
    ratio = times["version-1 UUIDs"] / times["random UUIDs"]
    print(f"version-1 / random:   {ratio:.2f}x")
    if ratio > 2:
        print("the duplicate index is slow on version-1 UUIDs", file=sys.stderr)
        return 1
    return 0


sys.exit(main())
