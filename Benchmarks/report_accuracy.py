#!/usr/bin/env python3
"""How close `skanc report`'s revenue mid-point comes to the truth, over many simulated seeds.

usage: Benchmarks/report_accuracy.py [--seeds N] [--users N] [--skanc BIN]
For each schema with a derived `buckets amount` field (Game: four wide buckets, the top one open-ended;
SKANStandardRevenue: sixteen narrow ones) and each seed: a journey of purchases at random prices within the
first two days (the seed draws them), run by N users from five campaigns at a mix of privacy tiers
(`skanc simulate --postbacks --truth`); then `skanc report --format json --no-verify`. For every campaign whose
postbacks show revenue, the true revenue of those postbacks (the truth file's amounts) is compared with the
report: whether it lies inside [low, high], and the mid-point's relative error. Prints per schema the campaigns
compared, the share inside the interval (must be all), and the mean and worst error of the mid-point.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEMAS = {"Schemas/Game.skan": ("purchase", "revenue"),
           "Schemas/Platforms/SKANStandardRevenue.skan": ("iap", "revenue")}
PRICES = [0.99, 1.99, 2.99, 4.99, 9.99, 14.99, 19.99, 49.99]


def journey(event, seed):
    rng = random.Random(seed)
    hours = sorted(rng.uniform(0, 47.5) for _ in range(rng.randint(2, 12)))
    lines = [json.dumps({"hour": round(hour, 2), "event": event, "value": rng.choice(PRICES)}) for hour in hours]
    return "\n".join(lines + [json.dumps({"hour": 47.9})]) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--users", type=int, default=2000)
    parser.add_argument("--skanc", default=os.path.join(ROOT, ".build", "release", "skanc"))
    args = parser.parse_args()
    if not os.path.exists(args.skanc):
        subprocess.run(["swift", "build", "-c", "release", "--product", "skanc"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    failed = False
    with tempfile.TemporaryDirectory(prefix="skanc-accuracy-") as work:
        for schema, (event, field) in SCHEMAS.items():
            errors, inside, compared = [], 0, 0
            for seed in range(1, args.seeds + 1):
                paths = {name: os.path.join(work, name) for name in ("journey.jsonl", "postbacks.jsonl", "truth.jsonl")}
                with open(paths["journey.jsonl"], "w") as out:
                    out.write(journey(event, seed))
                with open(paths["postbacks.jsonl"], "wb") as out:
                    subprocess.run([args.skanc, "simulate", schema, paths["journey.jsonl"], "--postbacks", "--users",
                                    str(args.users), "--campaigns", "5", "--tiers", "0:0.1,1:0.2,2:0.3,3:0.4",
                                    "--seed", str(seed), "--truth", paths["truth.jsonl"]], cwd=ROOT, stdout=out,
                                   check=True)
                report = json.loads(subprocess.run(
                    [args.skanc, "report", schema, paths["postbacks.jsonl"], "--no-verify", "--format", "json", "--by",
                     "source_identifier"],
                    cwd=ROOT, capture_output=True, check=True).stdout)
                truth = {}
                for line in open(paths["truth.jsonl"]):
                    item = json.loads(line)
                    if item["fine_value"] is not None:
                        truth[item["source_identifier"]] = truth.get(item["source_identifier"], 0) + \
                            item["amounts"].get(field, 0)
                for group in report["groups"]:
                    revenue = next(r for r in group["revenue"] if r["field"] == field)
                    key = group["by"].get("source_identifier")
                    if revenue["postbacks"] == 0 or not truth.get(key):
                        continue
                    true, mid = truth[key], float(revenue["mid"])
                    high = float("inf") if revenue["high"] is None else float(revenue["high"])
                    compared += 1
                    inside += float(revenue["low"]) - 1e-9 <= true <= high + 1e-9
                    errors.append(abs(mid - true) / true)
            mean = sum(errors) / len(errors) if errors else float("nan")
            print(f"{schema}: {compared} campaigns over {args.seeds} seeds x {args.users} users; truth inside "
                  f"[low, high] in {inside} of {compared}; mid-point error mean {mean:.1%}, worst {max(errors):.1%}")
            failed |= inside != compared
    return 1 if failed else 0


sys.exit(main())
