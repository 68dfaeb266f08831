"""Journeys as `skanc simulate` reads them, for the platform evaluators next to this file."""
import json
from decimal import Decimal


def journey_lines(path):
    """Yields (line number, line) for each JSON line of the journey, skipping blank lines and `#` comments."""
    with open(path) as journey:
        for number, text in enumerate(journey, start=1):
            text = text.split("#", 1)[0].strip()
            if text:
                yield number, json.loads(text)


def window_at(hour):
    """The conversion window at `hour` since first launch: 1 before 48, 2 before 168, 3 before 840, else None."""
    return 1 if hour < 48 else 2 if hour < 168 else 3 if hour < 840 else None


def amount(number):
    """A logged or bound amount as the exact decimal it is written as (the shortest text of the double): the
    platforms document value sums and bounds, not binary doubles, so sums here are exact decimal sums, under
    which whole-cent amounts summing below 10 meet a maximum of 9.99."""
    return Decimal(repr(float(number)))
