#!/usr/bin/env bash
# Renders a schema's HTML page in headless Chromium and saves a screenshot, as docs/images/ holds:
#   Scripts/table-screenshot.sh Schemas/Shop.skan docs/images/shop-table.png
#   SKANC_PAGE=preview Scripts/table-screenshot.sh Schemas/Game.skan docs/images/game-preview.png
# usage: Scripts/table-screenshot.sh SCHEMA OUT.png [WIDTH [HEIGHT]]   (default 1700 x 1100, a laptop screen)
# SKANC names the skanc binary to use (default: swift run -q skanc); SKANC_PAGE the command whose page it is
# (table, the decoding page, or preview, the privacy tiers). Needs Debian's chromium package.
set -euo pipefail
schema=$1 out=$2 width=${3:-1700} height=${4:-1100}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "no chromium found; install it with: apt-get install -y chromium" >&2; exit 69; }
page=$(mktemp -d)/page.html
trap 'rm -rf "$(dirname "$page")"' EXIT
command=${SKANC_PAGE:-table}
case "$command" in table|preview) ;; *) echo "SKANC_PAGE is table or preview" >&2; exit 64 ;; esac
if [ -n "${SKANC:-}" ]; then "$SKANC" "$command" "$schema" --format html > "$page"; else swift run -q skanc "$command" "$schema" --format html > "$page"; fi
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,$height" \
  --screenshot="$(realpath -m "$out")" "file://$page" 2>/dev/null
[ -s "$out" ] || { echo "chromium made no screenshot" >&2; exit 1; }
