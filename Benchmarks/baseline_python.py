#!/usr/bin/env python3
"""The script an analyst writes without skanc: Python's json module and a hand-written lookup for the Shop
layout (bit 0 registered, bits 1-2 payment tier, bits 3-4 day-one action), CSV out.
usage: baseline_python.py < postbacks.jsonl > decoded.csv"""
import csv
import json
import sys

TIERS = ["none", "low", "medium", "high"]
ACTIONS = ["none", "browsed", "addedToCart", "ordered"]
writer = csv.writer(sys.stdout)
writer.writerow(["transaction_id", "version", "postback_sequence_index", "fine_value", "coarse_value",
                 "registered", "payment_tier", "day_one_action"])
for line in sys.stdin:
    postback = json.loads(line)
    value = postback.get("conversion-value")
    row = [postback.get("transaction-id", ""), postback.get("version", ""), postback.get("postback-sequence-index", "")]
    if value is None:
        writer.writerow(row + ["", postback.get("coarse-conversion-value", ""), "", "", ""])
    else:
        writer.writerow(row + [value, "", value & 1 == 1, TIERS[(value >> 1) & 3], ACTIONS[(value >> 3) & 3]])
