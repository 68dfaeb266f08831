#!/usr/bin/env python3
"""How often `skanc report`'s revenue estimates hold the truth, and how far their mid-points stray from it.

usage: Benchmarks/revenue_coverage.py [--seeds N] [--users N] [--mix FILE] [--skanc BIN]
For each seed: a studio's trial (`skanc simulate Schemas/Game.skan --mix Simulations/GameTrial/mix.json
--postbacks --truth`: 3 networks, 36 campaigns sized 1, 1/2, 1/3, ..., tiers by campaign size, 4.6% payers,
15% AdAttributionKit), reported by `skanc report --by ad_network_id,source_identifier_2 --format json` (one group
per campaign as the network sees it) twice, side by side: with the default method (each range at its mid-point)
and with `--amounts PRIOR`, a prior of the amounts per install of "last month" (the truth of another seed, 0).
For every group the truth file gives the revenue of its window-1 postbacks, all of them and those without a fine
value. Prints:
- the hard bounds (`installs.low`, `installs.high`): the share of groups whose true revenue lies inside (must be
  all: they are bounds, not a model);
- per method, the estimate over all installs (`installs.estimate`) and over those without a fine value
  (`installs.estimate_without_fine_value`): the share of groups whose truth lies inside the 95% interval, the
  mid-point's error relative to the truth (median, and the worst over campaigns of at least 1,000 installs), and
  the interval's width relative to the truth; then the total over every group.
Goals (with the prior): mid within +-25% of the truth in total and for every campaign of at least 1,000 installs;
coverage at least 95%. Exit status 1 when a hard bound fails.
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


def write_prior(skanc, mix, users, path):
    """The amounts per window-1 install of another seed's trial: what the app's analytics knew last month."""
    truth = path + ".truth"
    subprocess.run([skanc, "simulate", SCHEMA, "--mix", mix, "--postbacks", "--users", str(users), "--seed", "0",
                    "--truth", truth], cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    with open(path, "w") as out:
        for line in open(truth):
            item = json.loads(line)
            if item["window"] == 1:
                out.write("%s\n" % item["amounts"].get(FIELD, 0))


class Tally:
    """Per estimate kind: groups inside the interval, compared, relative errors, relative widths, and the big
    campaigns' relative errors."""

    def __init__(self):
        self.inside = self.compared = 0
        self.errors, self.widths, self.big = [], [], []
        self.mid = self.truth = 0.0

    def add(self, estimate, truth, installs):
        if estimate is None:
            return
        high = float("inf") if estimate["high"] is None else float(estimate["high"])
        self.inside += float(estimate["low"]) - 1e-6 <= truth <= high + 1e-6
        self.compared += 1
        self.mid += float(estimate["mid"])
        self.truth += truth
        if truth > 0:
            error = (float(estimate["mid"]) - truth) / truth
            self.errors.append(abs(error))
            self.widths.append((high - float(estimate["low"])) / truth)
            if installs >= 1000:
                self.big.append(error)


def median(values):
    return sorted(values)[len(values) // 2] if values else float("nan")


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
    methods = {"mid-point": [], "prior": []}
    tallies = {(method, kind): Tally() for method in methods for kind in ("all installs", "without fine value")}
    with tempfile.TemporaryDirectory(prefix="skanc-coverage-") as work:
        postbacks, truth = os.path.join(work, "postbacks.jsonl"), os.path.join(work, "truth.jsonl")
        prior = os.path.join(work, "prior.txt")
        write_prior(args.skanc, args.mix, args.users, prior)
        methods["prior"] = ["--amounts", prior]
        for seed in range(1, args.seeds + 1):
            with open(postbacks, "wb") as out:
                subprocess.run([args.skanc, "simulate", SCHEMA, "--mix", args.mix, "--postbacks", "--users",
                                str(args.users), "--seed", str(seed), "--truth", truth], cwd=ROOT, stdout=out,
                               check=True)
            truths = truth_by_group(truth)
            for method, extra in methods.items():
                report = json.loads(subprocess.run(
                    [args.skanc, "report", SCHEMA, postbacks, "--no-verify", "--format", "json", "--by",
                     "ad_network_id,source_identifier_2"] + extra, cwd=ROOT, capture_output=True,
                    check=True).stdout)
                for group in report["groups"]:
                    key = (group["by"]["ad_network_id"], group["by"]["source_identifier_2"])
                    installs = next(r for r in group["revenue"] if r["field"] == FIELD)["installs"]
                    total, without, count = truths[key]
                    if method == "mid-point":
                        high = float("inf") if installs["high"] is None else float(installs["high"])
                        hard_total += 1
                        hard_inside += float(installs["low"]) - 1e-6 <= total <= high + 1e-6
                    estimate = installs["estimate_without_fine_value"]
                    if estimate is not None:
                        assert estimate["installs"] == count, (key, estimate, count)
                        assert estimate["method"] == method, (estimate["method"], method)
                    tallies[(method, "without fine value")].add(estimate, without, installs["postbacks"])
                    tallies[(method, "all installs")].add(installs["estimate"], total, installs["postbacks"])
    print(f"{args.seeds} seeds x {args.users} users of {args.mix}, grouped by ad_network_id,source_identifier_2")
    print(f"hard bounds over all installs: truth inside in {hard_inside} of {hard_total} groups")
    print("estimates (stated coverage 95%); error = (mid - truth) / truth; big = campaigns of 1,000+ installs")
    print(f"  {'method':<10} {'estimate of':<19} {'groups':>7} {'covered':>8} {'|error| median':>15} "
          f"{'big: worst error':>17} {'big within 25%':>15} {'width median':>13} {'total error':>12}")
    for (method, kind), tally in tallies.items():
        if not tally.compared:
            continue
        worst = max(tally.big, key=abs) if tally.big else float("nan")
        total_error = (tally.mid - tally.truth) / tally.truth if tally.truth else float("nan")
        within = "%d of %d" % (sum(abs(error) <= 0.25 for error in tally.big), len(tally.big))
        print(f"  {method:<10} {kind:<19} {tally.compared:>7} {tally.inside / tally.compared:>8.1%} "
              f"{median(tally.errors):>15.1%} {worst:>+17.1%} {within:>15} {median(tally.widths):>13.1%} "
              f"{total_error:>+12.1%}")
    return 0 if hard_inside == hard_total else 1


sys.exit(main())
