#!/usr/bin/env python3
"""Signs the postbacks of a generated file with a benchmark key, as Apple signs real ones: SKAdNetwork lines
get an `attribution-signature` over their version's signed string; AdAttributionKit lines get a real ES256
JWS (kid `bench/0`) whose payload carries the identifiers. Prints the public key (base64 DER) on stderr.
usage: sign_postbacks.py IN OUT
"""
import base64
import json
import sys
import uuid

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

ORDER = {
    "3.0": ["version", "ad-network-id", "campaign-id", "app-id", "transaction-id", "redownload", "source-app-id",
            "fidelity-type", "did-win"],
    "4.0": ["version", "ad-network-id", "source-identifier", "app-id", "transaction-id", "redownload",
            "source-app-id", "source-domain", "fidelity-type", "did-win", "postback-sequence-index"],
}


def text(value):
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    key = ec.derive_private_key(0x5EED_5EED_5EED_5EED, ec.SECP256R1())
    der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    print(base64.b64encode(der).decode(), file=sys.stderr)
    algorithm = ec.ECDSA(hashes.SHA256())
    with open(sys.argv[1]) as lines, open(sys.argv[2], "w") as out:
        for index, line in enumerate(lines):
            postback = json.loads(line)
            if "jws-string" in postback:
                header = b64url(b'{"kid":"bench/0","alg":"ES256"}')
                payload = b64url(json.dumps({
                    "postback-identifier": str(uuid.UUID(int=index)), "ad-network-identifier": "com.example",
                    "source-identifier": "1234", "advertised-item-identifier": 525463029, "did-win": True,
                    "postback-sequence-index": 0, "conversion-type": "download",
                    "marketplace-identifier": "com.apple.AppStore"}, separators=(",", ":")).encode())
                r, s = decode_dss_signature(key.sign(f"{header}.{payload}".encode(), algorithm))
                postback["jws-string"] = f"{header}.{payload}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"
            else:
                message = "\u2063".join(text(postback[k]) for k in ORDER[postback["version"]] if k in postback)
                postback["attribution-signature"] = base64.b64encode(key.sign(message.encode(), algorithm)).decode()
            out.write(json.dumps(postback, separators=(",", ":")) + "\n")


main()
