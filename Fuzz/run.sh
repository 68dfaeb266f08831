#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer and runs each for a bounded time, once optimized (-O,
# the speed users get) and once not (-Onone, where unsafe buffer accesses are bounds-checked).
# usage: Fuzz/run.sh [SECONDS_PER_TARGET_AND_BUILD] [TARGET...]   targets: schema postbacks generated signatures csv plist (default: all)
#        FUZZ_OPTIMIZATIONS="-O" Fuzz/run.sh ...               only the optimized builds
# Exits non-zero on any crash, leak or timeout, naming the input that caused it (in .build/fuzz/).
# Seeds: the example schemas, the test fixtures, Apple's example postbacks and Fuzz/Regressions/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(schema postbacks generated signatures csv plist)

work=.build/fuzz
mkdir -p "$work"
# The schema compiler and the postback engine, compiled as one module under the compiler's name (so the
# engine's `import SkanCompiler` is a no-op) together with a target's entry point.
mapfile -t library < <(find Sources/SkanCompiler Sources/SkanPostbacks -name '*.swift' | sort)
read -r -a optimizations <<< "${FUZZ_OPTIMIZATIONS:--O -Onone}"

# The schema texts, for the generated-decoder target's reference semantics.
{
  for name in Shop EventFlags Subscription; do
    variable="$(echo "${name:0:1}" | tr 'A-Z' 'a-z')${name:1}Text"
    printf 'let %s = #"""\n%s\n"""#\n' "$variable" "$(cat "Schemas/$name.skan")"
  done
} > "$work/SchemaTexts.swift"

status=0
for optimization in "${optimizations[@]}"; do
for target in "${targets[@]}"; do
  own=0
  case "$target" in
    schema)
      sources=(Fuzz/Targets/SchemaFuzzer.swift)
      seeds=(Schemas Tests/SkanCompilerTests/Fixtures/invalid Tests/SkanCompilerTests/Fixtures/Torture.skan Fuzz/Regressions/schema) ;;
    postbacks)
      sources=(Fuzz/Targets/PostbackFuzzer.swift)
      seeds=(Tests/Fixtures/apple-examples.jsonl Fuzz/Regressions/postbacks) ;;
    signatures)
      sources=(Fuzz/Targets/SignatureFuzzer.swift)
      seeds=(Tests/Fixtures/apple-examples.jsonl Fuzz/Regressions/signatures) ;;
    plist)
      # Self-contained: the checker alone, without the library (a shorter build).
      own=1
      sources=(Fuzz/Targets/PlistBoundsFuzzer.swift Sources/skanc/InfoPlist/BinaryPlistBounds.swift)
      seeds=(Fuzz/Regressions/plist) ;;
    csv)
      own=1
      sources=(Fuzz/Targets/CSVFuzzer.swift Sources/SkanCompiler/Text/CSVField.swift Tests/Shared/StrictCSV.swift)
      seeds=(Fuzz/Regressions/csv) ;;
    generated)
      sources=(Fuzz/Targets/GeneratedDecoderFuzzer.swift Tests/GeneratedCode/Internal/*.swift "$work/SchemaTexts.swift")
      seeds=(Fuzz/Regressions/generated) ;;
    *) echo "unknown fuzz target '$target' (schema, postbacks, generated, signatures, csv, plist)" >&2; exit 64 ;;
  esac

  binary="$work/$target$optimization"
  swiftc -sanitize=fuzzer,address -parse-as-library "$optimization" -swift-version 6 -module-name SkanCompiler \
    -package-name skanc -suppress-warnings $([ "$own" = 1 ] || printf '%s ' "${library[@]}") "${sources[@]}" -o "$binary" 2> "$work/$target-build.log" \
    || { cat "$work/$target-build.log" >&2; exit 1; }

  # A fresh corpus from the seeds (single files, every file of a folder, every line of a JSON-lines file).
  corpus="$work/$target-corpus"
  rm -rf "$corpus" && mkdir -p "$corpus"
  for seed in "${seeds[@]}"; do
    [ -e "$seed" ] || continue
    find "$seed" -type f -not -name '.*' | while read -r file; do
      cp "$file" "$corpus/$(echo "$file" | tr '/' '_')"
      if [[ "$file" == *.jsonl ]]; then split -l 1 -d -a 4 "$file" "$corpus/$(basename "$file")-line-"; fi
    done
  done
  [ -n "$(ls -A "$corpus")" ] || printf '\x00' > "$corpus/empty-seed"

  log="$work/$target.log"
  if "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=16384 \
       -artifact_prefix="$work/$target-" -print_final_stats=1 > "$log" 2>&1; then
    runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1)
    files=$(ls "$corpus" | wc -l)
    echo "fuzz $target ($optimization): ${runs:-no summary}s, corpus $files inputs"
    # A run that executed nothing tested nothing.
    if [[ ! "$runs" =~ ^Done\ [1-9] ]]; then
      echo "fuzz $target ($optimization): no inputs were run; see $log" >&2
      status=1
    fi
  else
    echo "fuzz $target ($optimization): FAILED; the input is in $work/$target-* (add it to Fuzz/Regressions/$target/)" >&2
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|panic|==[0-9]+==' "$log" | head -20 >&2
    status=1
  fi
done
done
exit $status
