#!/usr/bin/env python3
"""ECDSA P-256 verifications per second on one core: skanc's against OpenSSL's (Python's `cryptography`), on
the same keys, messages and signatures, in one run. Two workloads: every signature by one key (as postbacks are
all signed by Apple's key, for which skanc keeps a table), and every signature by a key of its own.
usage: Benchmarks/signatures.py [--count N] [--rounds R]
"""
import argparse
import os
import random
import subprocess
import time

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    subprocess.run(["swift", "build", "-c", "release", "--package-path", "Benchmarks", "--product", "signature-benchmark"],
                   cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    for shared in (True, False):
        measure(args, shared)


def measure(args, shared):
    rng = random.Random(5)
    cases = []
    fixed = ec.derive_private_key(rng.randrange(1, 2 ** 255), ec.SECP256R1())
    for index in range(args.count):
        private = fixed if shared else ec.derive_private_key(rng.randrange(1, 2 ** 255), ec.SECP256R1())
        message = rng.randbytes(120)
        signature = private.sign(message, ec.ECDSA(hashes.SHA256()))
        cases.append((private.public_key(), message, signature))
    work = os.path.join(ROOT, ".build", "benchmarks")
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "signatures.txt")
    print("one key for every signature:" if shared else "a key for each signature:")
    with open(path, "w") as out:
        for key, message, signature in cases:
            der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
            out.write(f"{der.hex()} {message.hex()} {signature.hex()}\n")

    best = float("inf")
    for _ in range(args.rounds):
        start = time.perf_counter()
        for key, message, signature in cases:
            key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        best = min(best, time.perf_counter() - start)
    openssl = args.count / best
    print(f"  OpenSSL (cryptography): {args.count} verifications in {best:.3f} s, {int(openssl)} per second")

    output = subprocess.run([os.path.join(ROOT, "Benchmarks", ".build", "release", "signature-benchmark"), path, str(args.rounds)],
                            check=True, capture_output=True, text=True).stdout
    print("  " + output, end="")
    ours = int(output.split(" per second")[0].split(", ")[-1])
    print(f"  skanc / OpenSSL: {ours / openssl:.2f}x (one core each)")


main()
