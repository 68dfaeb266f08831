#!/usr/bin/env bash
# Renders `skanc report --format html` in headless Chromium and saves a screenshot, as the README shows it:
#   Scripts/report-screenshot.sh docs/images/game-report.png
# usage: Scripts/report-screenshot.sh OUT.png [WIDTH [HEIGHT]]   (default 1700 x 1100, a laptop screen)
# The postbacks are simulated: Schemas/Game.skan over the trial mix (Simulations/GameTrial/mix.json: three networks
# of twelve campaigns, tiers by campaign size, 4.6% payers), 6,000 users, signed with the test key and verified
# with it, grouped by network and campaign (the default), with receipt times and a cost file made up beside them
# (below). SKANC_JSON=FILE also writes the same report as JSON there. SKANC names the skanc binary
# (default: swift run -q skanc); SKANC_DOM=1 also prints the page's DOM as Chromium parsed it (the test reads the
# charts from it). Needs Debian's chromium package.
set -euo pipefail
out=$1 width=${2:-1700} height=${3:-1100}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "no chromium found; install it with: apt-get install -y chromium" >&2; exit 69; }
directory=$(mktemp -d)
trap 'rm -rf "$directory"' EXIT
skanc() { if [ -n "${SKANC:-}" ]; then "$SKANC" "$@"; else swift run -q skanc "$@"; fi; }
keys=$(skanc simulate Schemas/Game.skan --mix Simulations/GameTrial/mix.json --postbacks --users 6000 --seed 4 \
  --sign-with Tests/Fixtures/keys/rfc6979-test-key.pem \
  2>&1 >"$directory/postbacks.jsonl" | sed -n 's/.*public key is \([^ ]*\) .*/\1/p' | paste -sd, -)
# As a receiver's store keeps them: a receipt time a line (spread evenly over 14 days from 2026-11-20), and a
# cost file of each network's campaigns (1.75 USD an install won, on the first day).
lines=$(wc -l <"$directory/postbacks.jsonl")
awk -v lines="$lines" 'BEGIN { for (i = 0; i < lines; i++) printf "%d\n", 1795132800 + int(i * 1209600 / lines) }' \
  >"$directory/postbacks.times"
# A prior for the estimates: last month's revenue per install (another seed's truth), as an app's analytics has it.
skanc simulate Schemas/Game.skan --mix Simulations/GameTrial/mix.json --postbacks --users 6000 --seed 5 \
  --truth "$directory/truth.jsonl" >/dev/null
python3 -c 'import json, sys
for line in open(sys.argv[1]):
    item = json.loads(line)
    if item["window"] == 1: print(item["amounts"].get("revenue", 0))' "$directory/truth.jsonl" >"$directory/prior.txt"
skanc report Schemas/Game.skan "$directory/postbacks.jsonl" --public-key "$keys" --format json \
  -o "$directory/plain.json"
python3 - "$directory" <<'PYTHON'
import json, sys
directory = sys.argv[1]
with open(directory + "/cost.csv", "w") as cost:
    cost.write("network,campaign,day,spend,currency\n")
    for group in json.load(open(directory + "/plain.json"))["groups"]:
        by, installs = group["by"], group["by_window"]["1"]["installs"]
        campaign = by.get("source_identifier") or by.get("campaign_id")
        if installs and by.get("ad_network_id") and campaign:
            cost.write("%s,%s,2026-11-20,%.2f,USD\n" % (by["ad_network_id"], campaign, installs * 1.75))
PYTHON
skanc report Schemas/Game.skan "$directory/postbacks.jsonl" --public-key "$keys" \
  --cost "$directory/cost.csv" --amounts "$directory/prior.txt" --format html -o "$directory/page.html"
if [ -n "${SKANC_JSON:-}" ]; then
  skanc report Schemas/Game.skan "$directory/postbacks.jsonl" --public-key "$keys" \
    --cost "$directory/cost.csv" --amounts "$directory/prior.txt" --format json -o "$SKANC_JSON"
fi
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,$height")
if [ "${SKANC_DOM:-}" = 1 ]; then
  "$browser" "${flags[@]}" --dump-dom "file://$directory/page.html" 2>/dev/null
fi
"$browser" "${flags[@]}" --screenshot="$(realpath -m "$out")" "file://$directory/page.html" 2>/dev/null
[ -s "$out" ] || { echo "chromium made no screenshot" >&2; exit 1; }
