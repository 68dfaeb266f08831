#!/usr/bin/env python3
"""The Google Ads API's SKAdNetwork conversion value schema, read as its reference describes it, to check
`skanc export --format google-ads`.

Usage: google_ads_evaluate.py SCHEMA.json JOURNEY.jsonl...

SCHEMA.json is parsed strictly by Google's own client library (google-ads: the current API version's
CustomerSkAdNetworkConversionValueSchema.from_json with ignore_unknown_fields=False). JOURNEY is JSON lines as
`skanc simulate` reads them. For each line this prints, as a JSON line, what the schema describes at that hour:
{"journey": J, "line": N, "window": 1|2|3|null, "fine_value": V|null, "coarse_value": "low"|...|null, "lock": bool}.

How a mapping is read (CustomerSkAdNetworkConversionValueSchema.SkAdNetworkConversionValueSchema): a fine value's
ConversionValueMapping holds when the user's last activity, in whole hours since install, lies between
min_time_post_install_hours and max_time_post_install_hours, and every mapped event holds: its revenue sum within
event_revenue_range (inclusive; a bound of 0 is unset) or equal to event_revenue_value, and its count within
event_occurrence_range (inclusive; a maximum of 0 is unset) or equal to event_counter. Revenue sums are exact
decimal sums of the values logged (`journeys.amount`). Each value has one mapping,
so exactly one fine value (in window 1) and one coarse value (per postback, by postback_sequence_index 0-2) may
hold; more than one, or none, is printed as null. A postback's lock trigger is an event logged, its fine value or
its coarse value.
Exit status 2 when google-ads is missing.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from journeys import amount, journey_lines, window_at  # noqa: E402

try:
    from google.ads.googleads.v26.resources.types import customer_sk_ad_network_conversion_value_schema as resource
    from google.ads.googleads.v26.enums.types import sk_ad_network_coarse_conversion_value as coarse_enum
except ImportError:
    sys.stderr.write("google-ads is missing; install it with `python3 -m pip install google-ads`\n")
    sys.exit(2)

Coarse = coarse_enum.SkAdNetworkCoarseConversionValueEnum.SkAdNetworkCoarseConversionValue


def event_holds(event, counts, sums):
    count = counts.get(event.mapped_event_name, 0)
    total = sums.get(event.mapped_event_name, amount(0))
    if "event_revenue_range" in event:
        bounds = event.event_revenue_range
        if bounds.min_event_revenue and total < amount(bounds.min_event_revenue):
            return False
        if bounds.max_event_revenue and total > amount(bounds.max_event_revenue):
            return False
    if "event_revenue_value" in event and total != amount(event.event_revenue_value):
        return False
    if "event_occurrence_range" in event:
        bounds = event.event_occurrence_range
        if count < bounds.min_event_count:
            return False
        if bounds.max_event_count and count > bounds.max_event_count:
            return False
    if "event_counter" in event and count != event.event_counter:
        return False
    return True


def mapping_holds(mapping, hour, counts, sums):
    whole = math.floor(hour)
    if whole < mapping.min_time_post_install_hours or whole > mapping.max_time_post_install_hours:
        return False
    return all(event_holds(event, counts, sums) for event in mapping.mapped_events)


def main():
    with open(sys.argv[1]) as file:
        schema = resource.CustomerSkAdNetworkConversionValueSchema.from_json(file.read(), ignore_unknown_fields=False).schema
    postbacks = {mapping.postback_sequence_index: mapping for mapping in schema.postback_mappings}
    for journey, path in enumerate(sys.argv[2:]):
        evaluate(schema, postbacks, path, journey)


def evaluate(schema, postbacks, path, journey):
    """Prints what the platform sets at each line of the journey at `path`, the `journey`-th named."""
    counts, sums, logged = {}, {}, set()
    for number, line in journey_lines(path):
        hour = line["hour"]
        if "event" in line:
            name = line["event"]
            logged.add(name)
            counts[name] = counts.get(name, 0) + 1
            sums[name] = sums.get(name, amount(0)) + amount(line.get("value", 0))
        window = window_at(hour)
        if window is None:
            print(json.dumps({"journey": journey, "line": number, "window": None, "fine_value": None,
                              "coarse_value": None, "lock": False}))
            continue
        fines = [m.fine_grained_conversion_value for m in schema.fine_grained_conversion_value_mappings
                 if mapping_holds(m.conversion_value_mapping, hour, counts, sums)]
        fine = fines[0] if len(fines) == 1 else None
        postback = postbacks.get(window - 1)
        coarse = None
        if postback is not None:
            given = postback.coarse_grained_conversion_value_mappings
            holding = [name for name, key in [("low", "low_conversion_value_mapping"),
                                              ("medium", "medium_conversion_value_mapping"),
                                              ("high", "high_conversion_value_mapping")]
                       if key in given and mapping_holds(getattr(given, key), hour, counts, sums)]
            coarse = holding[0] if len(holding) == 1 else None
        lock = False
        if postback is not None:
            if "lock_window_event" in postback:
                lock = postback.lock_window_event in logged
            elif "lock_window_fine_conversion_value" in postback:
                lock = window == 1 and fine == postback.lock_window_fine_conversion_value
            elif "lock_window_coarse_conversion_value" in postback:
                lock = coarse is not None and Coarse[coarse.upper()] == postback.lock_window_coarse_conversion_value
        print(json.dumps({"journey": journey, "line": number, "window": window, "fine_value": fine if window == 1 else None,
                          "coarse_value": coarse, "lock": lock}))


main()
