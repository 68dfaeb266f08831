#!/usr/bin/env python3
"""Writes N synthetic postbacks as JSON lines, deterministic for a seed.

Mix: 15% SKAdNetwork 3.0 (one postback, fine value or none), 75% SKAdNetwork 4.0 (windows 1-3, privacy
tiers 0-3: a fine value only in the first postback at tier 2 or 3, a coarse value otherwise at tier 1 or more),
10% AdAttributionKit stanzas (values outside an opaque JWS). Field names and types follow Apple's formats.
usage: generate_postbacks.py N [SEED] > postbacks.jsonl
"""
import json
import random
import sys
import uuid

COARSE = ["low", "medium", "high"]
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def main():
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 11)
    signatures = ["MEUCIQ" + "".join(rng.choice(B64) for _ in range(89)) + "=" for _ in range(2048)]
    out = sys.stdout
    for _ in range(count):
        transaction = str(uuid.UUID(int=rng.getrandbits(128)))
        signature = signatures[rng.getrandbits(11)]
        draw = rng.random()
        if draw < 0.15:
            postback = {"version": "3.0", "ad-network-id": "example123.skadnetwork", "campaign-id": rng.randint(1, 99),
                        "transaction-id": transaction, "app-id": 525463029, "attribution-signature": signature,
                        "redownload": rng.random() < 0.1, "fidelity-type": rng.randint(0, 1), "did-win": rng.random() < 0.9}
            if postback["did-win"] and rng.random() < 0.8:
                postback["conversion-value"] = rng.randint(0, 63)
        elif draw < 0.9:
            index = rng.choice([0, 0, 0, 1, 2])
            tier = rng.randint(0, 3)
            digits = 4 if tier >= 2 and index == 0 else 2
            postback = {"version": "4.0", "ad-network-id": "com.example",
                        "source-identifier": str(rng.randint(10 ** (digits - 1), 10 ** digits - 1)),
                        "app-id": 525463029, "transaction-id": transaction, "redownload": rng.random() < 0.1,
                        "fidelity-type": rng.randint(0, 1), "did-win": True, "postback-sequence-index": index,
                        "attribution-signature": signature}
            if index == 0 and tier >= 2:
                postback["conversion-value"] = rng.randint(0, 63)
            elif tier >= 1:
                postback["coarse-conversion-value"] = rng.choice(COARSE)
        else:
            opaque = signature.replace("+", "-").replace("/", "_")
            postback = {"jws-string": "eyJhbGciOiJFUzI1NiJ9." + opaque + "." + opaque[:40],
                        "ad-interaction-type": rng.choice(["click", "view"]), "country-code": rng.choice(["US", "DE", "JP"])}
            if rng.random() < 0.5:
                postback["conversion-value"] = rng.randint(0, 63)
            else:
                postback["coarse-conversion-value"] = rng.choice(COARSE)
        out.write(json.dumps(postback, separators=(",", ":")) + "\n")


main()
