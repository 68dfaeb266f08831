#!/usr/bin/env python3
"""Runs skanc's commands on the pathological inputs of the hostile-input sweeps and prints each run's wall time
and peak memory (maximum resident set size, from wait4) next to the bound every such run must stay within:
2 s and 500 MB; a file read whole that is endless (/dev/zero) must be refused within 1 s and 50 MB. The inputs
are generated here, deterministically, into .build/hostile/.

    python3 Benchmarks/hostile.py            # builds skanc in release mode first
    python3 Benchmarks/hostile.py --skanc .build/release/skanc

Exits 1 when a bounded run goes past its bound or ends with an exit status other than the expected one.
`simulate --postbacks --users 1000000`, the documented maximum, is measured too and reported without the
2-second bound: it writes 2.7 million postbacks, streamed in bounded memory.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "hostile")
SECONDS, MEGABYTES = 2.0, 500
# An endless input (/dev/zero) read whole: refused at its kind's limit, quickly and in little memory.
ENDLESS_SECONDS, ENDLESS_MEGABYTES = 1.0, 50


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def blowup_schema():
    """Four flags each a ten-term `or` of event conditions, combined by the coarse block and the lock."""
    lines = ["schema Blowup", "version 2"] + [f"event e{i}" for i in range(40)]
    for flag in range(4):
        terms = " or ".join(f"e{flag * 10 + i}.count >= {1 + i % 3}" for i in range(10))
        lines.append(f"flag f{flag} at bit {flag} when {terms}")
    pairs = " or ".join(f"(e{2 * i - 1} and e{2 * i})" for i in range(1, 10))
    any_of = lambda r: "(" + " or ".join(f"e{i}" for i in r) + ")"
    lines += ["reserved bits 4...5", "coarse {", f"  high when (f0 and f1) or {pairs}",
              f"  medium when (f2 or f3) and {any_of(range(20, 30))}", "  low otherwise", "}",
              f"lock window 1 when {any_of(range(30, 40))} and {any_of(range(0, 10))}"]
    return "\n".join(lines) + "\n"


def many_events_schema():
    """2,000 events and a first-match field of 63 cases on three events each (128 KB)."""
    lines = ["schema Big", "version 2"] + [f"event e{i}" for i in range(2000)] + ["field step at bits 0...5 {"]
    for code in range(63, 0, -1):
        lines.append(f"  s{code} = {code} when e{3 * code} and e{3 * code + 1} and e{3 * code + 2}"
                     f" or e{1000 + code}.count >= 3")
    lines += ["  s0 = 0 otherwise", "}", "coarse {"]
    lines += [f"  high when e{1500 + i} and e{1600 + i} and step >= s{i + 1}" for i in range(20)]
    lines += ["  low otherwise", "}"]
    return "\n".join(lines) + "\n"


def gap_schema(terms):
    """A coarse block without `otherwise` over `terms` events, with a real gap (e0 logged and nothing else)."""
    events = [f"event e{i}" for i in range(terms)]
    rules = [f"  high when e{i} and e{i + 1}" for i in range(terms - 1)] + ["  low when not e0"]
    return "\n".join(["schema Gap", "version 1"] + events + ["flag a at bit 0", "reserved bits 1...5", "coarse {"]
                     + rules + ["}"]) + "\n"


def ga4_configuration(entries, mappings, seed):
    """GA4 entries with interleaved fine values, `mappings` count and value bounds each."""
    generator = random.Random(seed)
    events = ["open", "level", "buy", "ad", "share"]
    values = []
    for _ in range(entries):
        chosen = generator.sample(events, mappings)
        maps = []
        for event in chosen:
            mapping = {"eventName": event, "minEventCount": str(generator.randint(1, 6))}
            if generator.random() < 0.5:
                mapping["minEventValue"] = generator.randint(1, 60) + 0.5
            maps.append(mapping)
        values.append({"fineValue": generator.choice([1, 5, 9, 17, 33, 63]),
                       "coarseValue": "COARSE_VALUE_" + generator.choice(["LOW", "MEDIUM", "HIGH"]),
                       "lockEnabled": generator.random() < 0.2, "eventMappings": maps})
    return json.dumps({"postbackWindowOne": {"conversionValues": values, "postbackWindowSettingsEnabled": True}})


def journey(lines, events, valued):
    generator = random.Random(lines)
    out, hour = [], 0.0
    for index in range(lines):
        hour += 0.02
        event = generator.choice(events)
        value = f', "value": {generator.choice([0.99, 4.99, 20])}' if event in valued else ""
        out.append(f'{{"hour": {hour:.2f}, "event": "{event}"{value}}}')
    return "\n".join(out) + "\n"


def long_condition_schema(terms):
    parts = [f"(e{i % 7}.count >= {i % 5 + 1} and e{(i + 3) % 7}.sum <= {i % 90 + 1}.5)" for i in range(terms // 2)]
    return "\n".join(["schema LongRule", "version 1"] + [f"event e{i} value USD" for i in range(7)]
                     + ["flag a at bit 0", "reserved bits 1...5", "coarse {", f"  high when {' or '.join(parts)}",
                        "  low otherwise", "}"]) + "\n"


def amounts(count):
    generator = random.Random(count)
    return "\n".join(f"{generator.uniform(0, 200):.2f}" for _ in range(count)) + "\n"


def lsp_session(megabytes):
    """`skanc lsp` input: initialize, a document of `megabytes` MB of comment lines (a line feed, escaped, every
    100 bytes), shutdown and exit. Written piece by piece: this process must not grow, or every child it forks
    would report its peak memory as its own."""
    def frame(message):
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    head = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///big.skan", "languageId": "skan", "version": 1, "text": "@"}}}).encode()
    prefix, suffix = head.split(b"@")
    first = json.dumps("schema T\nversion 1\n")[1:-1].encode()
    line = json.dumps("# " + "x" * 97 + "\n")[1:-1].encode()
    count = megabytes * 10_000
    path = os.path.join(WORK, "lsp-%dmb.bin" % megabytes)
    with open(path, "wb") as f:
        f.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
        f.write(b"Content-Length: %d\r\n\r\n" % (len(prefix) + len(first) + count * len(line) + len(suffix)))
        f.write(prefix + first)
        for _ in range(count // 1000):
            f.write(line * 1000)
        f.write(suffix)
        f.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"}))
    return path


def measure(command, stdin=None):
    start = time.monotonic()
    with open(os.devnull, "w") as sink, open(stdin or os.devnull, "rb") as source:
        process = subprocess.Popen(command, stdin=source, stdout=sink, stderr=subprocess.DEVNULL, cwd=WORK)
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skanc", help="a built skanc (default: build one in release mode)")
    arguments = parser.parse_args()
    skanc = arguments.skanc
    if skanc is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        skanc = os.path.join(ROOT, ".build", "release", "skanc")
    skanc = os.path.abspath(skanc)
    os.makedirs(WORK, exist_ok=True)
    game = os.path.join(ROOT, "Schemas", "Game.skan")
    one_flag = write("OneFlag.skan", "schema OneFlag\nversion 1\nevent tap\nflag tapped at bit 0 when tap\n"
                     "reserved bits 1...5\ncoarse { high when tap.count >= 3  low otherwise }\n")
    mix = write("zero-mix.json", json.dumps({"journeys": [{"file": "/dev/zero", "weight": 1, "keep": 1}],
                                              "networks": [{"ad_network_id": "a.skadnetwork", "campaigns": 1,
                                                            "weight": 1}]}))
    endless = [
        ("simulate, the journey /dev/zero", ["simulate", game, "/dev/zero"], 1),
        ("simulate --mix, the mix /dev/zero", ["simulate", game, "--mix", "/dev/zero", "--postbacks"], 1),
        ("simulate --mix, a journey of the mix /dev/zero", ["simulate", game, "--mix", mix, "--postbacks"], 1),
        ("import ga4 /dev/zero", ["import", "ga4", "/dev/zero"], 1),
        ("import meta /dev/zero", ["import", "meta", "/dev/zero"], 1),
        ("import google-ads /dev/zero", ["import", "google-ads", "/dev/zero"], 1),
        ("suggest buckets --from /dev/zero", ["suggest", "buckets", "--from", "/dev/zero", "--bits", "3"], 1),
        ("report --cost /dev/zero",
         ["report", game, os.path.join(ROOT, "Tests", "Fixtures", "apple-examples.jsonl"), "--no-verify", "--cost",
          "/dev/zero"], 1),
    ]
    runs = [
        # (what, arguments, expected exit status, bounded)
        ("export ga4, four flags of ten-term ors", ["export", write("Blowup.skan", blowup_schema()), "--format", "ga4"], 1, True),
        ("export google-ads, the same", ["export", "Blowup.skan", "--format", "google-ads", "--app-id", "1"], 1, True),
        ("export app-reporting-pack, the same", ["export", "Blowup.skan", "--format", "app-reporting-pack", "--app-id", "1"], 1, True),
        ("export google-ads, 2,000 events (128 KB)",
         ["export", write("Big.skan", many_events_schema()), "--format", "google-ads", "--app-id", "1"], 1, True),
        ("check, a gap in a block of 40 event terms", ["check", write("Gap.skan", gap_schema(40))], 1, True),
        ("check, a 2,048-term condition", ["check", write("Long.skan", long_condition_schema(2048))], 0, True),
        ("generate, the same", ["generate", "Long.skan"], 0, True),
        ("import ga4, 24 entries of two mappings", ["import", "ga4", write("g24.json", ga4_configuration(24, 2, 1))], 0, True),
        ("import ga4, 128 entries of three mappings", ["import", "ga4", write("g128.json", ga4_configuration(128, 3, 2))], 0, True),
        ("simulate, one flag, 40,000 lines", ["simulate", one_flag, write("taps.jsonl", journey(40000, ["tap"], set()))], 0, True),
        ("simulate, Game.skan, 40,000 lines",
         ["simulate", game, write("game.jsonl", journey(40000, ["sign_up", "level_complete", "view_item", "add_to_cart", "purchase"], {"purchase"}))], 0, True),
        ("suggest buckets, 10,000 amounts at six bits",
         ["suggest", "buckets", "--from", write("amounts.txt", amounts(10000)), "--bits", "6"], 0, True),
        ("lsp, a 10 MB document (a line feed every 100 bytes)", ["lsp", "<", lsp_session(10)], 0, True),
        ("simulate --postbacks --users 1000000 (the maximum)",
         ["simulate", game, write("short.jsonl", journey(14, ["sign_up", "level_complete", "purchase"], {"purchase"})),
          "--postbacks", "--users", "1000000", "--truth", "truth.jsonl"], 0, False),
    ]
    print(f"{'run':58} {'seconds':>8} {'peak MB':>8}  status")
    failed = False
    for what, command, expected, bounded in runs + [(what, command, expected, "endless") for what, command, expected in endless]:
        stdin = command[command.index("<") + 1] if "<" in command else None
        seconds, megabytes, status = measure([skanc] + [c for c in command if c not in ("<", stdin)], stdin)
        limit = (ENDLESS_SECONDS, ENDLESS_MEGABYTES) if bounded == "endless" else (SECONDS, MEGABYTES)
        over = bool(bounded) and (seconds > limit[0] or megabytes > limit[1])
        wrong = status != expected
        failed |= over or wrong
        note = ("OVER THE BOUND " if over else "") + (f"exit {status}, expected {expected}" if wrong else f"exit {status}")
        print(f"{what:58} {seconds:8.2f} {megabytes:8.1f}  {note}{'' if bounded else ' (unbounded by design)'}")
    print(f"bound: {SECONDS} s and {MEGABYTES} MB a run ({ENDLESS_SECONDS} s and {ENDLESS_MEGABYTES} MB for an endless "
          f"input), release build, {os.cpu_count()} cores")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
