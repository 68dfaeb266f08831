#!/usr/bin/env python3
"""GA4's SKAdNetwork conversion value schema, evaluated as Google documents it, to check `skanc export --format ga4`.

Usage: ga4_evaluate.py SCHEMA.json JOURNEY.jsonl...

SCHEMA.json is parsed strictly by Google's own client library (google-analytics-admin:
SKAdNetworkConversionValueSchema.from_json with ignore_unknown_fields=False); a field it does not know, or a
value of the wrong type, fails here. JOURNEY is JSON lines as `skanc simulate` reads them ({"hour": H, "event":
NAME, "value": X}). For each line this prints, as a JSON line, what GA4 would set at that hour:
{"journey": J, "line": N, "window": 1|2|3|null, "fine_value": V|null, "coarse_value": "low"|...|null, "updated": bool,
"lock": bool}.

How GA4 decides, from the resource's reference (properties.dataStreams.sKAdNetworkConversionValueSchema):
- the postback window at the hour: 1 before hour 48, 2 before 168, 3 before 840, none after;
- a window whose postbackWindowSettingsEnabled is false inherits: window two takes postbackWindowOne's conversion
  values, window three postbackWindowTwo's (what window two uses) when window two is set, else window one's;
- "the first conversion value setting that evaluates to true will be selected": all of its eventMappings hold,
  each with its min/max event count and min/max event value (inclusive; an unset bound is not checked), over
  the events logged since install (value sums exact decimal sums, `journeys.amount`);
- fineValue is window one's only; nothing selected sets nothing: no update ("updated": false), fine value 0,
  coarse value null, no lock.
Exit status 2 when google-analytics-admin is missing.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from journeys import amount, journey_lines, window_at  # noqa: E402

try:
    from google.analytics.admin_v1alpha import types
except ImportError:
    sys.stderr.write("google-analytics-admin is missing; install it with `python3 -m pip install google-analytics-admin`\n")
    sys.exit(2)

COARSE = {
    types.CoarseValue.COARSE_VALUE_LOW: "low",
    types.CoarseValue.COARSE_VALUE_MEDIUM: "medium",
    types.CoarseValue.COARSE_VALUE_HIGH: "high",
}


def holds(mapping, counts, sums):
    count = counts.get(mapping.event_name, 0)
    value = sums.get(mapping.event_name, amount(0))
    # Proto3 optional fields: `in` says whether each bound was set.
    if "min_event_count" in mapping and count < mapping.min_event_count:
        return False
    if "max_event_count" in mapping and count > mapping.max_event_count:
        return False
    if "min_event_value" in mapping and value < amount(mapping.min_event_value):
        return False
    if "max_event_value" in mapping and value > amount(mapping.max_event_value):
        return False
    return True


def main():
    with open(sys.argv[1]) as file:
        schema = types.SKAdNetworkConversionValueSchema.from_json(file.read(), ignore_unknown_fields=False)
    windows = [schema.postback_window_one, schema.postback_window_two, schema.postback_window_three]
    for journey, path in enumerate(sys.argv[2:]):
        evaluate(schema, windows, path, journey)


def evaluate(schema, windows, path, journey):
    """Prints what the platform sets at each line of the journey at `path`, the `journey`-th named."""
    counts, sums = {}, {}
    for number, line in journey_lines(path):
        hour = line["hour"]
        if "event" in line:
            name = line["event"]
            counts[name] = counts.get(name, 0) + 1
            sums[name] = sums.get(name, amount(0)) + amount(line.get("value", 0))
        window = window_at(hour)
        if window is None:
            print(json.dumps({"journey": journey, "line": number, "window": None, "fine_value": None,
                              "coarse_value": None, "updated": False, "lock": False}))
            continue
        settings = windows[window - 1]
        if window == 3 and not settings.postback_window_settings_enabled and "postback_window_two" in schema:
            settings = windows[1]
        if window > 1 and not settings.postback_window_settings_enabled:
            settings = windows[0]
        chosen = next(
            (value for value in settings.conversion_values if all(holds(m, counts, sums) for m in value.event_mappings)),
            None,
        )
        fine = (chosen.fine_value if chosen else 0) if window == 1 else None
        coarse = COARSE[chosen.coarse_value] if chosen else None
        lock = bool(chosen.lock_enabled) if chosen else False
        print(json.dumps({"journey": journey, "line": number, "window": window, "fine_value": fine, "coarse_value": coarse,
                          "updated": chosen is not None, "lock": lock}))


main()
