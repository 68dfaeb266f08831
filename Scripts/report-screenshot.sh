#!/usr/bin/env bash
# Renders `skanc report --format html` in headless Chromium and saves a screenshot, as the README shows it:
#   Scripts/report-screenshot.sh docs/images/game-report.png
# usage: Scripts/report-screenshot.sh OUT.png [WIDTH [HEIGHT]]   (default 1700 x 1100, a laptop screen)
# The postbacks are simulated: Schemas/Game.skan over the trial mix (Simulations/GameTrial/mix.json: three networks
# of twelve campaigns, tiers by campaign size, 4.6% payers), 6,000 users, signed with the test key and verified
# with it, grouped by network and two-digit campaign. SKANC names the skanc binary
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
skanc report Schemas/Game.skan "$directory/postbacks.jsonl" --public-key "$keys" \
  --by ad_network_id,source_identifier_2 --format html -o "$directory/page.html"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,$height")
if [ "${SKANC_DOM:-}" = 1 ]; then
  "$browser" "${flags[@]}" --dump-dom "file://$directory/page.html" 2>/dev/null
fi
"$browser" "${flags[@]}" --screenshot="$(realpath -m "$out")" "file://$directory/page.html" 2>/dev/null
[ -s "$out" ] || { echo "chromium made no screenshot" >&2; exit 1; }
