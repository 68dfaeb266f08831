#!/usr/bin/env python3
"""How often `skanc report`'s revenue estimate for installs without a fine value holds the truth.

usage: Benchmarks/revenue_coverage.py [--seeds N] [--users N] [--mix FILE] [--skanc BIN]
For each seed: a studio's trial (`skanc simulate Schemas/Game.skan --mix Simulations/GameTrial/mix.json
--postbacks --truth`: 3 networks, 36 campaigns sized 1, 1/2, 1/3, ..., tiers by campaign size, 4.6% payers,
15% AdAttributionKit), reported by `skanc report --by ad_network_id,source_identifier_2 --format json`. For every
group (a network's campaigns sharing their first two digits) the truth file gives the revenue of its window-1
postbacks, all of them and those without a fine value. Prints:
- the hard bounds (`installs.low`, `installs.high`): the share of groups whose true revenue lies inside (must be
  all: they are bounds, not a model);
- the estimate for installs without a fine value (`installs.estimate_without_fine_value`): the share of groups
  whose truth lies inside its interval, against the 95% it states, by how many installs it estimated for; the
  mid-point's error relative to the truth, and the interval's width relative to the truth.
Exit status 1 when a hard bound fails.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEMA = "Schemas/Game.skan"
FIELD = "revenue"


def truth_by_group(path):
    """Per (network, first two digits): the revenue of all window-1 postbacks and of those without a fine value."""
    groups = {}
    for line in open(path):
        item = json.loads(line)
        if item["window"] != 1:
            continue
        key = (item["ad_network_id"], item["source_identifier"][:2])
        amount = item["amounts"].get(FIELD, 0)
        entry = groups.setdefault(key, [0.0, 0.0, 0])
        entry[0] += amount
        if item["fine_value"] is None:
            entry[1] += amount
            entry[2] += 1
    return groups


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--users", type=int, default=50000)
    parser.add_argument("--mix", default="Simulations/GameTrial/mix.json")
    parser.add_argument("--skanc", default=os.path.join(ROOT, ".build", "release", "skanc"))
    args = parser.parse_args()
    if not os.path.exists(args.skanc):
        subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    hard_inside = hard_total = 0
    # Per size class of the estimated installs: [inside, compared, relative errors, relative widths].
    classes = {}
    with tempfile.TemporaryDirectory(prefix="skanc-coverage-") as work:
        postbacks, truth = os.path.join(work, "postbacks.jsonl"), os.path.join(work, "truth.jsonl")
        for seed in range(1, args.seeds + 1):
            with open(postbacks, "wb") as out:
                subprocess.run([args.skanc, "simulate", SCHEMA, "--mix", args.mix, "--postbacks", "--users",
                                str(args.users), "--seed", str(seed), "--truth", truth], cwd=ROOT, stdout=out,
                               check=True)
            report = json.loads(subprocess.run(
                [args.skanc, "report", SCHEMA, postbacks, "--no-verify", "--format", "json", "--by",
                 "ad_network_id,source_identifier_2"], cwd=ROOT, capture_output=True, check=True).stdout)
            truths = truth_by_group(truth)
            for group in report["groups"]:
                key = (group["by"]["ad_network_id"], group["by"]["source_identifier_2"])
                installs = next(r for r in group["revenue"] if r["field"] == FIELD)["installs"]
                total, without, count = truths[key]
                high = float("inf") if installs["high"] is None else float(installs["high"])
                hard_total += 1
                hard_inside += float(installs["low"]) - 1e-6 <= total <= high + 1e-6
                estimate = installs["estimate_without_fine_value"]
                if estimate is None:
                    continue
                assert estimate["installs"] == count, (key, estimate, count)
                size = "1-99" if count < 100 else "100-999" if count < 1000 else "1000+"
                entry = classes.setdefault(size, [0, 0, [], []])
                entry[0] += float(estimate["low"]) - 1e-6 <= without <= float(estimate["high"]) + 1e-6
                entry[1] += 1
                if without > 0:
                    entry[2].append(abs(float(estimate["mid"]) - without) / without)
                    entry[3].append((float(estimate["high"]) - float(estimate["low"])) / without)
    print(f"{args.seeds} seeds x {args.users} users of {args.mix}, grouped by ad_network_id,source_identifier_2")
    print(f"hard bounds over all installs: truth inside in {hard_inside} of {hard_total} groups")
    print("estimate for installs without a fine value (stated coverage 95%):")
    print(f"  {'installs estimated':>18} {'groups':>7} {'covered':>8} {'mid error (median)':>19} {'width (median)':>15}")
    for size in ("1-99", "100-999", "1000+"):
        if size not in classes:
            continue
        inside, compared, errors, widths = classes[size]
        median = lambda values: sorted(values)[len(values) // 2] if values else float("nan")
        print(f"  {size:>18} {compared:>7} {inside / compared:>8.1%} {median(errors):>19.1%} {median(widths):>15.1%}")
    return 0 if hard_inside == hard_total else 1


sys.exit(main())
