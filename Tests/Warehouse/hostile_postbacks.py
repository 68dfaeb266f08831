#!/usr/bin/env python3
"""Writes the hostile postback fixture for the warehouse tests: one named case a line, covering every status,
the JSON corner cases where engines differ from each other, and lines that are not JSON at all.

usage: hostile_postbacks.py OUT.jsonl OUT.names
The names file has one name per line of OUT.jsonl (blank lines, which yield no row, are named too), so a
difference an engine cannot avoid is excluded by name (warehouse_parity.py) rather than by line number.
"""
import base64
import json
import sys

CASES = []


def case(name, line):
    CASES.append((name, line if isinstance(line, bytes) else line.encode("utf-8")))


def uid(n):
    return "%08x-0000-4000-8000-%012x" % (n, n)


def skan(version="4.0", extra="", n=0, drop=()):
    members = {
        "1.0": '"ad-network-id":"net.example","app-id":525463029,"transaction-id":"%s","campaign-id":42',
        "2.0": '"version":"2.0","ad-network-id":"net.example","app-id":525463029,"transaction-id":"%s","campaign-id":42,"redownload":false',
        "2.1": '"version":"2.1","ad-network-id":"net.example","app-id":525463029,"transaction-id":"%s","campaign-id":42,"redownload":true',
        "2.2": '"version":"2.2","ad-network-id":"net.example","app-id":525463029,"transaction-id":"%s","campaign-id":42,"redownload":false,"fidelity-type":1',
        "3.0": '"version":"3.0","ad-network-id":"net.example","app-id":525463029,"transaction-id":"%s","campaign-id":42,"redownload":false,"fidelity-type":0,"did-win":true',
        "4.0": '"version":"4.0","ad-network-id":"net.example","app-id":525463029,"transaction-id":"%s","source-identifier":"1234","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":0',
    }[version] % uid(n)
    parts = [m for m in members.split(',"') if not any(m.lstrip('"').startswith(d + '"') for d in drop)]
    body = ',"'.join(parts)
    return "{" + body + ("," + extra if extra else "") + "}"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def aak(payload_extra="", stanza='"conversion-value":5', n=0, payload=None, interaction="click"):
    if payload is None:
        members = json.loads(
            '{"postback-identifier":"%s","ad-network-identifier":"net.example","source-identifier":"1234",'
            '"advertised-item-identifier":525463029,"did-win":true,"postback-sequence-index":0,'
            '"conversion-type":"download","marketplace-identifier":"com.apple.AppStore",'
            '"impression-type":"app-impression"}' % uid(n))
        # An extra member replaces the one of the same name, so that no key is repeated.
        members.update(json.loads("{" + payload_extra + "}"))
        payload = json.dumps(members, separators=(",", ":")).encode()
    header = b64url(b'{"alg":"ES256","kid":"apple-cas-identifier/0"}')
    jws = header + "." + b64url(payload) + ".c2lnbmF0dXJl"
    return '{"jws-string":"%s","ad-interaction-type":"%s"%s}' % (jws, interaction, "," + stanza if stanza else "")


def main():
    n = iter(range(1, 10_000))
    # Valid postbacks of every version and kind.
    case("skan-1.0", skan("1.0", n=next(n)))
    case("skan-2.0-fine", skan("2.0", '"conversion-value":7', n=next(n)))
    case("skan-2.1", skan("2.1", '"conversion-value":1,"source-app-id":1234567891', n=next(n)))
    case("skan-2.2", skan("2.2", '"conversion-value":63', n=next(n)))
    case("skan-3.0-winner", skan("3.0", '"conversion-value":11,"source-app-id":1234567891', n=next(n)))
    case("skan-3.0-nonwinner-plain", skan("3.0", n=next(n)).replace('"did-win":true', '"did-win":false'))
    case("skan-4.0-tier3", skan("4.0", '"conversion-value":9,"source-app-id":1234567891', n=next(n)))
    case("skan-4.0-web", skan("4.0", '"conversion-value":9,"source-domain":"example.com"', n=next(n)))
    case("skan-4.0-coarse-window2", skan("4.0", '"coarse-conversion-value":"high"', n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":1'))
    case("skan-4.0-coarse-window3", skan("4.0", '"coarse-conversion-value":"low"', n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":2'))
    case("skan-4.0-tier0", skan("4.0", n=next(n)))
    case("skan-4.0-tier1", skan("4.0", '"coarse-conversion-value":"medium"', n=next(n)).replace('"source-identifier":"1234"', '"source-identifier":"12"'))
    case("skan-4.0-unknown-keys", skan("4.0", '"conversion-value":3,"x":{"y":[1,2,{"z":null}]},"attribution-signature":"MEUCIQ"', n=next(n)))
    case("skan-test-postback", skan("3.0", '"conversion-value":0,"source-app-id":0', n=next(n)))
    case("skan-test-postback-4.0", skan("4.0", '"conversion-value":0,"source-app-id":0.0', n=next(n)))
    case("aak-fine", aak(n=next(n)))
    case("aak-coarse", aak(stanza='"coarse-conversion-value":"medium","country-code":"DE"', n=next(n), interaction="view"))
    case("aak-publisher", aak('"publisher-item-identifier":1234567891', n=next(n)))
    case("aak-reengagement", aak('"conversion-type":"re-engagement"', n=next(n)))
    case("aak-reengagement-unhyphenated", aak('"conversion-type":"reengagement"', n=next(n)))
    # Not JSON, not an object, too long, blank.
    case("not-json-trailing-comma", '{"version":"4.0",}')
    case("not-json-text-after", '{"version":"4.0"} x')
    case("not-json-unbalanced", '{"version":"4.0"')
    case("not-json-words", "hello")
    case("not-json-control-character", b'{"transaction-id":"a\x01b"}')
    case("not-json-single-quotes", "{'version':'4.0'}")
    case("not-object-array", "[1,2,3]")
    case("not-object-string", '"postback"')
    case("not-object-number", "12")
    case("not-object-null", "null")
    case("blank", "")
    case("blank-spaces", "   \t ")
    case("line-too-long", '{"x":"' + "a" * (1 << 20) + '"}')
    # JWS problems.
    case("jws-one-dot", '{"jws-string":"abc.def","conversion-value":5}')
    case("jws-three-dots", '{"jws-string":"a.b.c.d","conversion-value":5}')
    case("jws-bad-base64", '{"jws-string":"a.b*c.d","conversion-value":5}')
    case("jws-length-one-mod-four", '{"jws-string":"a.bcdef.d","conversion-value":5}')
    case("jws-payload-not-json", aak(payload=b"not json"))
    # Payload bytes past ASCII: UTF-8 of two, three and four bytes decodes (SQLite's slow path); bytes that are
    # not UTF-8 make the payload unreadable.
    case("jws-payload-utf8", aak(payload=(
        '{"postback-identifier":"%s","ad-network-identifier":"r\u00e9seau.\u6e2c\u8a66.\U0001f600",'
        '"source-identifier":"1234","advertised-item-identifier":525463029,"did-win":true,'
        '"postback-sequence-index":0,"conversion-type":"download","marketplace-identifier":"com.apple.AppStore",'
        '"impression-type":"app-impression"}' % uid(next(n))).encode("utf-8")))
    case("jws-payload-invalid-utf8", aak(payload=(
        b'{"postback-identifier":"%s","ad-network-identifier":"net.\xff\xfeexample","source-identifier":"1234",'
        b'"advertised-item-identifier":525463029,"did-win":true,"postback-sequence-index":0,'
        b'"conversion-type":"download"}' % uid(next(n)).encode())))
    # Payloads of 48 successive lengths (the object, then blanks): base64 texts of 64 successive lengths, so
    # SQLite's decoder, 64 characters a step, ends on every size of last chunk, whole groups and broken ones.
    for blanks in range(48):
        payload = aak(n=next(n)).split('"jws-string":"')[1].split(".")[1]
        text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)) + b" " * blanks
        case("jws-payload-length-%d" % len(b64url(text)), aak(payload=text))
    # A byte 0 ends a text in SQLite's functions: the decoded payload must still be refused, wherever it is.
    case("jws-payload-nul-first", aak(payload=b'\x00{"did-win":true}'))
    case("jws-payload-nul-last", aak(payload=b'{"did-win":true}\x00'))
    # Payload texts one character away from base64url, each engine checking the alphabet its own way: standard
    # base64's characters, a blank, a letter past ASCII, a line break at the end (a pattern's `$` may take it
    # for the end), and padding, which is taken off.
    for name, change in [("plus", lambda t: "+" + t[1:]), ("slash", lambda t: t[:-1] + "/"),
                         ("blank", lambda t: t[:5] + " " + t[6:]), ("non-ascii", lambda t: t[:5] + "\u00e9" + t[6:]),
                         ("newline-last", lambda t: t + "\\n"), ("padded", lambda t: t + "=" * (-len(t) % 4))]:
        line = aak(n=next(n))
        segment = line.split('"jws-string":"')[1].split(".")[1]
        case("jws-payload-alphabet-" + name, line.replace("." + segment + ".", "." + change(segment) + "."))
    case("jws-payload-array", aak(payload=b"[1,2]"))
    case("jws-payload-broken-object", aak(payload=b'{"did-win":true,'))
    case("jws-not-a-string", '{"jws-string":5,"conversion-value":5}')
    case("jws-escaped-slash", aak(n=next(n)).replace("apple", "apple").replace('"jws-string":"', '"jws-string":"\\u0065'))
    # Types and ranges.
    case("wrong-type-fine-string", skan("4.0", '"conversion-value":"12"', n=next(n)))
    case("wrong-type-fine-fraction", skan("4.0", '"conversion-value":2.5', n=next(n)))
    case("wrong-type-fine-null", skan("4.0", '"conversion-value":null', n=next(n)))
    case("wrong-type-version-number", skan("4.0", n=next(n)).replace('"version":"4.0"', '"version":4'))
    case("wrong-type-did-win-string", skan("4.0", n=next(n)).replace('"did-win":true', '"did-win":"true"'))
    case("wrong-type-app-id-object", skan("4.0", n=next(n)).replace('"app-id":525463029', '"app-id":{"id":1}'))
    case("wrong-type-source-domain", skan("4.0", '"source-domain":7', n=next(n)))
    case("out-of-range-fine-64", skan("4.0", '"conversion-value":64', n=next(n)))
    case("out-of-range-fine-negative", skan("4.0", '"conversion-value":-1', n=next(n)))
    case("out-of-range-fine-huge-integer", skan("4.0", '"conversion-value":99999999999999999999', n=next(n)))
    case("out-of-range-fine-exponent", skan("4.0", '"conversion-value":1e400', n=next(n)))
    case("out-of-range-sequence", skan("4.0", n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":3'))
    case("out-of-range-fidelity", skan("4.0", n=next(n)).replace('"fidelity-type":1', '"fidelity-type":2'))
    case("whole-fine-exponent", skan("4.0", '"conversion-value":2.0e1', n=next(n)))
    case("whole-fine-point-zero", skan("4.0", '"conversion-value":20.0', n=next(n)))
    case("whole-fine-negative-zero", skan("4.0", '"conversion-value":-0', n=next(n)))
    case("fraction-fine-tiny", skan("4.0", '"conversion-value":1e-400', n=next(n)))
    case("fraction-fine-long", skan("4.0", '"conversion-value":1.00000000000000000000000000000000000000001', n=next(n)))
    case("fraction-fine-close", skan("4.0", '"conversion-value":20.000000000000000001', n=next(n)))
    case("fraction-fine-tiny-exponent", skan("4.0", '"conversion-value":5E-1', n=next(n)))
    case("whole-fine-shifted", skan("4.0", '"conversion-value":0.12e2', n=next(n)))
    case("whole-fine-zero-huge-exponent", skan("4.0", '"conversion-value":0e99999999999', n=next(n)))
    case("out-of-range-fine-huge-exponent", skan("4.0", '"conversion-value":1E+99999999999', n=next(n)))
    case("fraction-sequence", skan("4.0", n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":0.5'))
    case("whole-sequence-exponent", skan("4.0", n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":1e0'))
    case("aak-fraction-sequence", aak(payload=(
        b'{"postback-identifier":"%s","ad-network-identifier":"net.example","source-identifier":"1234",'
        b'"advertised-item-identifier":525463029,"did-win":true,"postback-sequence-index":1e-400,'
        b'"conversion-type":"download"}' % uid(next(n)).encode())))
    # Country codes: two letters on SKAdNetwork 4.0 and AdAttributionKit; anything else is wrong-type.
    case("country-code-4.0", skan("4.0", '"country-code":"US"', n=next(n)))
    case("country-code-4.0-three-letters", skan("4.0", '"country-code":"USA"', n=next(n)))
    case("country-code-4.0-number", skan("4.0", '"country-code":840', n=next(n)))
    case("country-code-3.0", skan("3.0", '"country-code":"US"', n=next(n)))
    case("country-code-aak-digits", aak(stanza='"conversion-value":5,"country-code":"U1"', n=next(n)))
    case("country-code-aak-escaped", aak(stanza='"conversion-value":5,"country-code":"\\u0055S"', n=next(n)))
    # Apple's rules per version.
    case("unknown-version", skan("4.0", n=next(n)).replace('"version":"4.0"', '"version":"5.0"'))
    case("unknown-version-short", skan("4.0", n=next(n)).replace('"version":"4.0"', '"version":"4"'))
    case("missing-field-transaction", skan("4.0", n=next(n), drop=("transaction-id",)))
    case("missing-field-3.0-did-win", skan("3.0", n=next(n), drop=("did-win",)))
    case("missing-field-aak", aak(payload=b'{"did-win":true}'))
    case("field-not-allowed-campaign-4.0", skan("4.0", '"campaign-id":42', n=next(n)))
    case("field-not-allowed-source-identifier-3.0", skan("3.0", '"source-identifier":"12"', n=next(n)))
    case("field-not-allowed-aak-stanza", aak(stanza='"conversion-value":5,"version":"4.0"', n=next(n)))
    case("signed-field-outside", aak(stanza='"conversion-value":5,"did-win":true', n=next(n)))
    case("value-in-payload", aak('"conversion-value":5', n=next(n)))
    case("value-in-payload-and-stanza-mistyped", aak('"conversion-value":5', stanza='"conversion-value":"x"', n=next(n)))
    case("bad-source-identifier-long", skan("4.0", n=next(n)).replace('"source-identifier":"1234"', '"source-identifier":"12345"'))
    case("bad-source-identifier-letters", skan("4.0", n=next(n)).replace('"source-identifier":"1234"', '"source-identifier":"12a"'))
    case("unknown-coarse", skan("4.0", '"coarse-conversion-value":"extreme"', n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":1'))
    case("unknown-conversion-type", aak('"conversion-type":"install"', n=next(n)))
    case("unknown-interaction-type", aak(n=next(n), interaction="hover"))
    case("fine-and-coarse", skan("4.0", '"conversion-value":5,"coarse-conversion-value":"low"', n=next(n)))
    case("fine-not-first", skan("4.0", '"conversion-value":5', n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":2'))
    case("non-winner-with-value", skan("3.0", '"conversion-value":5', n=next(n)).replace('"did-win":true', '"did-win":false'))
    case("non-winner-with-publisher", skan("3.0", '"source-app-id":1234567891', n=next(n)).replace('"did-win":true', '"did-win":false'))
    case("non-winner-later-postback", skan("4.0", n=next(n)).replace('"did-win":true', '"did-win":false').replace('"postback-sequence-index":0', '"postback-sequence-index":1'))
    case("invalid-fine-reserved", skan("4.0", '"conversion-value":48', n=next(n)))
    case("two-problems-first-wins", aak('"conversion-type":"install"', stanza='"conversion-value":5,"country-code":7', n=next(n)))
    # Duplicates.
    case("duplicate-original", skan("4.0", '"conversion-value":5', n=900))
    case("duplicate-repeat", skan("4.0", '"conversion-value":6', n=900))
    case("duplicate-uppercase", skan("4.0", '"conversion-value":6', n=900).replace(uid(900), uid(900).upper()))
    case("duplicate-text-id-original", '{"version":"4.0","ad-network-id":"n","app-id":1,"transaction-id":"not-a-uuid","source-identifier":"12","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":1}')
    case("duplicate-text-id-repeat", '{"version":"4.0","ad-network-id":"n","app-id":1,"transaction-id":"not-a-uuid","source-identifier":"12","redownload":false,"fidelity-type":1,"did-win":true,"postback-sequence-index":2}')
    case("duplicate-after-bad-line-original", skan("4.0", '"conversion-value":64', n=901))
    case("duplicate-after-bad-line-repeat", skan("4.0", '"conversion-value":1', n=901))
    case("duplicate-aak", aak(n=902))
    case("duplicate-aak-repeat", aak(n=902))
    # Text that needs care: escapes, Unicode, CSV and spreadsheet specials.
    case("escaped-coarse", skan("4.0", '"coarse-conversion-value":"\\u006cow"', n=next(n)).replace('"postback-sequence-index":0', '"postback-sequence-index":1'))
    case("escaped-key", skan("4.0", '"conversion\\u002dvalue":5', n=next(n)))
    case("escaped-version", skan("4.0", n=next(n)).replace('"version":"4.0"', '"version":"4\\u002e0"'))
    case("escaped-uuid-duplicate", skan("4.0", n=900).replace(uid(900), uid(900).replace("-", "\\u002d", 1)))
    case("unicode-network", skan("4.0", n=next(n)).replace("net.example", "n\u00e9t.\u00e9xample \U0001F600"))
    case("unicode-escaped-network", skan("4.0", n=next(n)).replace("net.example", "caf\\u00e9 \\ud83d\\ude00"))
    case("csv-comma-quote", skan("4.0", n=next(n)).replace("net.example", 'a,b \\"c\\"'))
    case("csv-formula", skan("4.0", n=next(n)).replace("net.example", "=1+1"))
    case("csv-minus-text", skan("4.0", n=next(n)).replace("net.example", "-x"))
    case("csv-minus-number", skan("4.0", n=next(n)).replace("net.example", "-5"))
    case("csv-newline-escape", skan("4.0", n=next(n)).replace("net.example", "a\\nb"))
    case("whitespace-around", "  \t" + skan("4.0", '"conversion-value":8', n=next(n)) + " \t\r")
    case("crlf-line", skan("4.0", '"conversion-value":8', n=next(n)) + "\r")
    case("escaped-nul", skan("4.0", n=next(n)).replace("net.example", "a\\u0000b"))
    case("lone-surrogate", skan("4.0", n=next(n)).replace("net.example", "a\\ud800b"))
    case("invalid-utf8", skan("4.0", n=next(n)).encode().replace(b"net.example", b"n\xff\xfe"))
    case("duplicate-key-last-wins", skan("4.0", '"conversion-value":5,"conversion-value":6', n=next(n)))
    case("deep-nesting", skan("4.0", '"x":' + "[" * 5000 + "]" * 5000, n=next(n)))
    case("empty-object", "{}")
    with open(sys.argv[1], "wb") as lines, open(sys.argv[2], "w") as names:
        for name, line in CASES:
            lines.write(line + b"\n")
            names.write(name + "\n")


main()
