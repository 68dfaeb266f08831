#!/usr/bin/env python3
"""Meta's SDK rule engine (facebook-ios-sdk, FBSDKSKAdNetworkReporterV2 and the rule types it uses), to check
`skanc import meta`.

Usage: meta_evaluate.py CONFIG.json JOURNEY.jsonl

CONFIG is Meta's configuration ({"data": [CONFIG]}); JOURNEY is JSON lines as `skanc simulate` reads them, with
the imported schema's event names: NAME for the default currency (or an event without values), NAME_xyz for
currency XYZ. For each line with an event this prints, as a JSON line, what the SDK would have set after it:
{"line": N, "window": 1|2|3|null, "fine_value": V, "coarse_value": "low"|"medium"|"high"|null, "updated": bool,
"lock": bool}: `updated` says whether the SDK has sent an update in the line's window so far.

As the SDK does it:
- an event is recorded by name; its value is summed per currency, a currency no conversion value rule names
  counting as the default currency;
- conversion value rules are tried from the highest value down; a rule matches when each of its events was
  recorded and, for an event with values, its sum in one of those currencies is over (>) the amount; the value
  only goes up; the SDK is "cut" when cutoff_time is 0 or missing, or more than cutoff_time days have passed
  (`shouldCutoff`): while cut and in postback 1, an event is dropped before it is recorded (it counts in no
  later window either), and once cut no fine value is set;
- the postback index is 1 up to 48 hours after install (inclusive), 2 up to 168, 3 up to 840; the coarse rules of
  the current index's config are tried high, medium, low, and the first that matches is sent
  (`_checkAndUpdateCoarseConversionValue`); where none matches nothing is sent: a window with no update has a
  null coarse value here (and no postback, in windows 2 and 3); in postback 1 a fine value update carries no
  coarse value (`updatePostbackConversionValue:completionHandler:`);
- not modelled: the SDK checks the rules only when an event is new to it or carries a value (`isFineCVCacheUpdated`,
  `isCoarseCVCacheUpdated`); here they are checked after every event, as a schema does;
- lock_window_rules (which the SDK parses but does not apply) lock a window at `time` hours or when their events
  match.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from journeys import journey_lines, window_at  # noqa: E402


def main():
    with open(sys.argv[1]) as file:
        root = json.load(file)
    config = root["data"][0] if isinstance(root.get("data"), list) else root
    default = config["default_currency"].upper()
    rules = sorted(config["conversion_value_rules"], key=lambda rule: -rule["conversion_value"])
    currencies = [default]
    for rule in rules:
        for event in rule["events"]:
            for value in event.get("values") or []:
                if value["currency"].upper() not in currencies:
                    currencies.append(value["currency"].upper())
    coarse = {c["postback_sequence_index"]: c["coarse_cv_rules"] for c in config.get("coarse_cv_configs", [])}
    order = {"high": 0, "medium": 1, "low": 2}
    for index in coarse:
        coarse[index] = sorted(coarse[index], key=lambda rule: order.get(rule["coarse_cv_value"], 3))
    locks = config.get("lock_window_rules", [])
    cutoff = config.get("cutoff_time", 0)

    def schema_name(event):
        # As the import names it: spaces and hyphens become "_", a leading digit gets a "_" before it.
        renamed = event.replace(" ", "_").replace("-", "_")
        return "_" + renamed if renamed[:1].isdigit() else renamed

    names = {}
    events = set()
    for source in rules + [r for rs in coarse.values() for r in rs] + [lock for lock in locks if "events" in lock]:
        for event in source.get("events", []):
            events.add(event["event_name"])
            if event.get("values") is not None:
                for currency in currencies:
                    suffix = "" if currency == default else "_" + currency.lower()
                    names[schema_name(event["event_name"]) + suffix] = (event["event_name"], currency)
    for event in events:
        names.setdefault(schema_name(event), (event, default))

    recorded, values = set(), {}

    def matched(rule_events):
        for event in rule_events:
            if event["event_name"] not in recorded:
                return False
            if event.get("values") is not None:
                sums = values.get(event["event_name"], {})
                if not any(sums.get(v["currency"].upper(), None) is not None and sums[v["currency"].upper()] > v["amount"]
                           for v in event["values"]):
                    return False
        return True

    fine, next_fine, coarse_sent, sent_window, fine_sent = 0, 0, None, None, False
    for number, line in journey_lines(sys.argv[2]):
        if "event" not in line:
            continue
        hour = line["hour"]
        seconds = hour * 3600
        index = 1 if seconds <= 172800 else 2 if seconds <= 604800 else 3 if seconds <= 3024000 else -1
        cut = (not cutoff) or seconds > cutoff * 86400
        if index != sent_window:
            coarse_sent, sent_window = None, index
        if not (cut and index == 1):
            name, currency = names.get(line["event"], (line["event"], default))
            recorded.add(name)
            if "value" in line:
                if currency not in currencies:
                    currency = default
                values.setdefault(name, {})
                values[name][currency] = values[name].get(currency, 0.0) + float(line["value"])
            for rule in rules:
                if rule["conversion_value"] < next_fine:
                    break
                if matched(rule["events"]):
                    if not cut:
                        fine, next_fine = rule["conversion_value"], rule["conversion_value"] + 1
                        fine_sent = fine_sent or index == 1
                    break
            for rule in coarse.get(index, []):
                if matched(rule["events"]):
                    coarse_sent = rule["coarse_cv_value"]
                    break
        lock = any(
            lock["postback_sequence_index"] == index
            and ((lock["lock_window_type"] == "time" and hour >= lock["time"])
                 or (lock["lock_window_type"] == "event" and matched(lock["events"])))
            for lock in locks
        )
        window = window_at(hour)
        updated = coarse_sent is not None or (index == 1 and fine_sent)
        # A lock goes with an update: with none, nothing locks.
        lock = lock and updated
        print(json.dumps({"line": number, "window": window, "fine_value": fine, "coarse_value": coarse_sent,
                          "updated": updated, "lock": lock}))


main()
