"""Journeys as `skanc simulate` reads them, for the platform evaluators next to this file."""
import json


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
