#!/usr/bin/env bash
# Builds the libFuzzer targets of the Fuzz package (against the package's real modules) with AddressSanitizer
# and runs each for a bounded time, once optimized (-O, the speed users get) and once not (-Onone, where unsafe
# buffer accesses are bounds-checked). Both are release builds, the second with -Onone last on the command
# line: a debug build names each executable's entry point for testing, which a libFuzzer target has not.
# usage: Fuzz/run.sh [SECONDS_PER_TARGET_AND_BUILD] [TARGET...]   targets: schema postbacks generated signatures csv plist strings journey ga4 meta export http lsp mix times cost google-ads artifact (default: all)
#        FUZZ_OPTIMIZATIONS="-O" Fuzz/run.sh ...               only the optimized builds
# Exits non-zero on any crash, leak or timeout, naming the input that caused it (in .build/fuzz/).
# Seeds: the example schemas, the test fixtures, Apple's example postbacks and Fuzz/Regressions/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(schema postbacks generated signatures csv plist strings journey ga4 meta export http lsp mix times cost google-ads artifact)
read -r -a optimizations <<< "${FUZZ_OPTIMIZATIONS:--O -Onone}"

work=.build/fuzz
mkdir -p "$work"

# The generated decoders the `generated` target checks, written by the skanc of this checkout (public, so the
# fuzz target's module sees them), with the schema texts for the reference semantics.
# They exist while this script runs (the package leaves the target out without them).
generated=Fuzz/Sources/FuzzedSchemas
rm -rf "$generated" && mkdir -p "$generated"
trap 'rm -rf "$generated"' EXIT
swift build --product skanc >/dev/null
skanc="$(swift build --show-bin-path)/skanc"
for name in Shop EventFlags Subscription; do
  "$skanc" generate "Schemas/$name.skan" --access-level public --output "$generated/$name.swift" --source-name "$name.skan"
  variable="$(echo "${name:0:1}" | tr 'A-Z' 'a-z')${name:1}Text"
  printf '/// The text of Schemas/%s.skan.\npublic let %s = #"""\n%s\n"""#\n' "$name" "$variable" "$(cat "Schemas/$name.skan")" >> "$generated/SchemaTexts.swift"
done

product() {
  case "$1" in
    schema) echo FuzzSchema ;; postbacks) echo FuzzPostbacks ;; signatures) echo FuzzSignatures ;;
    csv) echo FuzzCSV ;; plist) echo FuzzPlist ;; generated) echo FuzzGenerated ;; strings) echo FuzzStrings ;; journey) echo FuzzJourney ;; ga4) echo FuzzGA4 ;;
    meta) echo FuzzMeta ;; export) echo FuzzExport ;; http) echo FuzzHTTP ;; lsp) echo FuzzLSP ;; mix) echo FuzzMix ;;
    times) echo FuzzTimes ;; cost) echo FuzzCost ;; google-ads) echo FuzzGoogleAds ;; artifact) echo FuzzArtifact ;;
    *) echo "unknown fuzz target '$1' (schema, postbacks, generated, signatures, csv, plist, strings, journey, ga4, meta, export, http, lsp, mix, times, cost, google-ads, artifact)" >&2; exit 64 ;;
  esac
}
seeds() {
  case "$1" in
    schema) echo Schemas Tests/SkanCompilerTests/Fixtures/invalid Tests/SkanCompilerTests/Fixtures/Torture.skan Fuzz/Regressions/schema ;;
    postbacks) echo Tests/Fixtures/apple-examples.jsonl Fuzz/Regressions/postbacks ;;
    signatures) echo Tests/Fixtures/apple-examples.jsonl Tests/Fixtures/keys Fuzz/Regressions/signatures ;;
    strings) echo Tests/Fixtures/plist Fuzz/Regressions/strings ;;
    journey) echo Tests/Fixtures/journeys Fuzz/Regressions/journey ;;
    ga4) echo Tests/SkanPlatformsTests/Fixtures Tests/SkanPlatformsTests/Goldens Fuzz/Regressions/ga4 ;;
    meta) echo Tests/SkanPlatformsTests/Fixtures/meta-config.json Fuzz/Regressions/meta ;;
    export) echo Schemas Tests/SkanCompilerTests/Fixtures/Torture.skan Fuzz/Regressions/export ;;
    mix) echo Simulations/GameTrial/mix.json Fuzz/Regressions/mix ;;
    google-ads) echo Tests/SkanPlatformsTests/Goldens/GoogleAdsExact.google-ads.json Fuzz/Regressions/google-ads ;;
    *) echo "Fuzz/Regressions/$1" ;;
  esac
}

# libFuzzer's coverage instrumentation (what -sanitize=fuzzer turns on) and libFuzzer without its `main`: SwiftPM
# gives every executable its own entry point, which runs libFuzzer's driver (Fuzz/Sources/FuzzSupport).
coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table
runtime_dir="$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/clang"
libfuzzer_archive=$(find "$runtime_dir" -name "libclang_rt.fuzzer_no_main-$(uname -m).a" | head -1)
[ -n "$libfuzzer_archive" ] || { echo "no libclang_rt.fuzzer_no_main in $runtime_dir: this toolchain has no libFuzzer" >&2; exit 1; }
libfuzzer=(-Xlinker "$libfuzzer_archive" -Xlinker -lstdc++)

# Swift's own crash handler reads the crashed process's memory in ways AddressSanitizer reports as a fault of
# its own, hiding the trap: off, so a trap reaches libFuzzer as a deadly signal with the input named.
export SWIFT_BACKTRACE=enable=no

# One fuzzer per processor at a time: each run is single-threaded and bounded by time, so two at once on two
# cores take half the wall time and give each target the same seconds.
parallel=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# Runs one built target on a fresh corpus; prints its line and leaves its status in $work/$target.status.
fuzz_one() {
  local target=$1 binary=$2 optimization=$3 status=0
  # A fresh corpus from the seeds (single files, every file of a folder, every line of a JSON-lines file).
  local corpus="$work/$target-corpus"
  rm -rf "$corpus" && mkdir -p "$corpus"
  for seed in $(seeds "$target"); do
    [ -e "$seed" ] || continue
    find "$seed" -type f -not -name '.*' | while read -r file; do
      cp "$file" "$corpus/$(echo "$file" | tr '/' '_')"
      if [[ "$file" == *.jsonl ]]; then split -l 1 -d -a 4 "$file" "$corpus/$(basename "$file")-line-"; fi
    done
  done
  [ -n "$(ls -A "$corpus")" ] || printf '\x00' > "$corpus/empty-seed"

  local run_log="$work/$target.log"
  # A signed postback verifies in about 0.05 s optimized and 3 s unoptimized under AddressSanitizer (P-192 and
  # P-256 arithmetic without -O), twice per input: the unoptimized build gets a timeout a busy 2-core machine
  # cannot reach with such an input, the optimized one keeps the tight bound that finds slow inputs.
  local timeout=10
  [ "$optimization" = "-Onone" ] && timeout=60
  if "$binary" "$corpus" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -max_len=16384 \
       -artifact_prefix="$work/$target-" -print_final_stats=1 > "$run_log" 2>&1; then
    local runs files
    runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$run_log" | tail -1)
    files=$(ls "$corpus" | wc -l)
    echo "fuzz $target ($optimization): ${runs:-no summary}s, corpus $files inputs"
    # A run that executed nothing tested nothing.
    if [[ ! "$runs" =~ ^Done\ [1-9] ]]; then
      echo "fuzz $target ($optimization): no inputs were run; see $run_log" >&2
      status=1
    fi
  else
    echo "fuzz $target ($optimization): FAILED; the input is in $work/$target-* (add it to Fuzz/Regressions/$target/)" >&2
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|panic|==[0-9]+==' "$run_log" | head -20 >&2
    status=1
  fi
  echo "$status" > "$work/$target.status"
}

status=0
for optimization in "${optimizations[@]}"; do
  build=(swift build --package-path Fuzz -c release --scratch-path "$work/build$optimization"
         -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage="$coverage" "${libfuzzer[@]}"
         -Xswiftc -enable-testing -Xswiftc "$optimization")
  log="$work/build$optimization.log"
  bin="$("${build[@]}" --show-bin-path)"
  # Every target is built before any runs, so a fuzzer never shares the processors with the compiler.
  for target in "${targets[@]}"; do
    "${build[@]}" --product "$(product "$target")" > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
  done
  for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    rm -f "$work/$target.status"
    fuzz_one "$target" "$bin/$(product "$target")" "$optimization" &
  done
  wait
  for target in "${targets[@]}"; do
    [ "$(cat "$work/$target.status" 2>/dev/null)" = 0 ] || status=1
  done
done
exit $status
