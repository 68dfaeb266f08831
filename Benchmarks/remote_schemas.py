#!/usr/bin/env python3
"""Schemas over the air, measured in one run: per logged event, the interpreter an app runs for a fetched schema
(InterpretedState, from Game's artifact) against the type the build plugin generates from the same schema
(goal: at most 3x); the time to verify a signed manifest, skanc's against OpenSSL's (Python's `cryptography`)
on the same file; and the artifact size of every shipped schema (goal: at most 16 KiB).
usage: Benchmarks/remote_schemas.py [--rounds R]
"""
import argparse
import base64
import glob
import os
import subprocess
import tempfile
import time

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKANC = os.path.join(ROOT, ".build", "release", "skanc")
BENCHMARK = os.path.join(ROOT, "Benchmarks", ".build", "release", "remote-schema-benchmark")


def run(arguments, **options):
    return subprocess.run(arguments, cwd=ROOT, check=True, capture_output=True, text=True, **options).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    run(["swift", "build", "-c", "release", "--product", "skanc"])
    run(["swift", "build", "-c", "release", "--package-path", "Benchmarks", "--product", "remote-schema-benchmark"])
    with tempfile.TemporaryDirectory() as work:
        key = os.path.join(work, "key.pem")
        public = os.path.join(work, "public.pem")
        run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
        run(["openssl", "ec", "-in", key, "-pubout", "-out", public])
        artifact = os.path.join(work, "game.json")
        run([SKANC, "compile", "Schemas/Game.skan", "-o", artifact, "--app", "1234567890"])
        site = os.path.join(work, "site")
        run([SKANC, "publish", "Schemas/Game.skan", "--app", "1234567890", "--to", site, "--key", key])
        manifest = os.path.join(site, "1234567890", "manifest.jws")

        print("skanc:", run([BENCHMARK, artifact, manifest, public, os.path.join(ROOT, "Schemas"), str(args.rounds)]),
              end="")
        print("OpenSSL (cryptography):", openssl_verification(manifest, public, args.rounds))

        print("artifact sizes (goal: at most 16,384 bytes):")
        for schema in sorted(glob.glob(os.path.join(ROOT, "Schemas", "**", "*.skan"), recursive=True)):
            out = os.path.join(work, "a.json")
            run([SKANC, "compile", schema, "-o", out])
            print(f"  {os.path.relpath(schema, ROOT)}: {os.path.getsize(out):,} bytes")


def openssl_verification(manifest, public, rounds, count=200):
    """The manifest's ES256 signature verified by OpenSSL, as a reader in another language would."""
    header, payload, signature = open(manifest).read().strip().split(".")
    raw = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = serialization.load_pem_public_key(open(public, "rb").read())
    message = (header + "." + payload).encode()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(count):
            key.verify(der, message, ec.ECDSA(hashes.SHA256()))
        best = min(best, time.perf_counter() - start)
    return f"manifest signature verification: {best / count * 1e6:.0f} us"


if __name__ == "__main__":
    main()
