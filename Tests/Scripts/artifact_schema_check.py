#!/usr/bin/env python3
"""Validates `skanc compile`'s artifacts against docs/schema-artifact.schema.json with the jsonschema package (an
outside reader of the JSON Schema, draft 2020-12), and that the JSON Schema refuses artifacts that break it.

usage: artifact_schema_check.py SKANC SCHEMA...
Prints one line per schema compiled and validated; exits 1 when an artifact does not validate or a broken one
does.
"""
import copy
import json
import subprocess
import sys

import jsonschema


def main():
    skanc, paths = sys.argv[1], sys.argv[2:]
    schema = json.load(open("docs/schema-artifact.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    checked = 0
    for path in paths:
        result = subprocess.run([skanc, "compile", path, "--app", "1234567890"], capture_output=True)
        if result.returncode != 0:
            continue  # a schema with errors has no artifact
        artifact = json.loads(result.stdout)
        errors = [f"{'/'.join(map(str, error.path))}: {error.message}" for error in validator.iter_errors(artifact)]
        checked += 1
        print(f"{path}: {len(errors)} errors")
        for error in errors[:5]:
            print("  " + error)
        failures += len(errors)
        # The schema is no check if it takes anything: a float where a decimal is text, an unknown member, an
        # unknown format, a bit outside the fine value are each refused.
        broken = []
        for change in ("format", "member", "bits", "float"):
            copy_ = copy.deepcopy(artifact)
            if change == "format":
                copy_["format"] = 2
            elif change == "member":
                copy_["schema"]["extra"] = 1
            elif change == "bits" and copy_["schema"]["fields"]:
                copy_["schema"]["fields"][0]["bits"] = [0, 6]
            elif change == "float":
                copy_["version"] = 1.5
            if validator.is_valid(copy_) and copy_ != artifact:
                broken.append(change)
        if broken:
            print(f"  broken artifacts the JSON Schema takes: {broken}")
            failures += len(broken)
    print(f"{checked} artifacts validated, {failures} problems")
    sys.exit(1 if failures or not checked else 0)


if __name__ == "__main__":
    main()
