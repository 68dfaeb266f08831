#!/usr/bin/env python3
"""Writes ECDSA test cases made by OpenSSL (through Python's `cryptography`), one JSON object per line:
curve, DER public key (hex), message (hex), r, s (hex) and whether OpenSSL verifies them. Valid signatures,
tampered messages and signatures, high-S twins, and r and s of 0, 1, n-1, n and n+1.
usage: ecdsa_cases.py COUNT_PER_CURVE SEED
"""
import json
import random
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

CURVES = {"P-256": (ec.SECP256R1(), 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551),
          "P-192": (ec.SECP192R1(), 0xFFFFFFFFFFFFFFFFFFFFFFFF99DEF836146BC9B1B4D22831)}


def verdict(key, message, r, s):
    try:
        key.verify(encode_dss_signature(r, s), message, ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError):
        return False


def main():
    count, rng = int(sys.argv[1]), random.Random(int(sys.argv[2]))
    for name, (curve, n) in CURVES.items():
        for index in range(count):
            private = ec.derive_private_key(rng.randrange(1, n), curve)
            public = private.public_key()
            der = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
            message = rng.randbytes(rng.randrange(0, 200))
            r, s = decode_dss_signature(private.sign(message, ec.ECDSA(hashes.SHA256())))
            cases = [(message, r, s), (message, r, n - s)]  # the high-S twin is as valid
            changed = bytearray(message + b"x")
            changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
            cases += [(bytes(changed), r, s), (message, r ^ (1 << rng.randrange(160)), s), (message, r, (s + 1) % n)]
            if index % 10 == 0:
                cases += [(message, value, s) for value in (0, 1, n - 1, n, n + 1)]
                cases += [(message, r, value) for value in (0, 1, n - 1, n, n + 1)]
            for msg, rr, ss in cases:
                ok = verdict(public, msg, rr, ss) if 0 < rr < n and 0 < ss < n else False
                print(json.dumps({"curve": name, "key": der.hex(), "message": msg.hex(),
                                  "r": "%x" % rr, "s": "%x" % ss, "valid": ok}))


main()
