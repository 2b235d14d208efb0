#!/usr/bin/env bash
# make fuzz: builds the libFuzzer harness with AddressSanitizer and runs each target for
# FUZZ_SECONDS (default 60; FUZZ_TARGETS picks some), seeded from gtfs-samples, the zip fixtures and ../shared/broken.
# Crashes land in Fuzz/findings/<target>/; the summary of each run in Fuzz/findings/log.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
SHARED=${SHARED:-../shared}
ROOT=$(pwd)
OUT=$ROOT/.build/fuzz
mkdir -p "$OUT" Fuzz/findings
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name transittoolkit -I "$ROOT/Sources/CSQLite" -I "$ROOT/Sources/CZlib" -I "$ROOT/Sources/CIsal" -I "$ROOT/Sources/CCrypto")
# Each library module a harness needs, once, in dependency order: the module graph is read
# from Package.swift (Fuzz/modules.py), not repeated here.
declare -A BUILT
build_module() {
  [ -n "${BUILT[$1]:-}" ] && return
  swiftc "${FLAGS[@]}" -I "$OUT" -wmo -module-name "$1" -emit-module -emit-module-path "$OUT/$1.swiftmodule" \
    -c -o "$OUT/$1.o" $(find "Sources/$1" -name '*.swift')
  BUILT[$1]=1
}
read -r -a COMPILER_MODULES <<< "$(python3 Fuzz/modules.py GTFSCompiler)"
LIBS=()
for module in "${COMPILER_MODULES[@]}"; do build_module "$module"; LIBS+=("$OUT/$module.o"); done
# Built from inside $OUT, where swiftc leaves its by-products.
(cd "$OUT" && swiftc "${FLAGS[@]}" -wmo -module-name GTFSCompiler -I "$OUT" -o "$OUT/gtfs-fuzz" \
  $(find "$ROOT/Sources/GTFSCompiler" -name '*.swift') "$ROOT/Fuzz/FuzzTargets.swift" "$ROOT/Fuzz/PatchFuzzTarget.swift" "${LIBS[@]}" -lsqlite3 -lz -lisal -lcrypto)
# The realtime harness: swift-protobuf (from the package's checkout), the runtime's modules
# and TransitRealtime with Fuzz/RealtimeFuzzTarget.swift as one module.
[ -d .build/checkouts/swift-protobuf ] || swift package resolve
swiftc "${FLAGS[@]}" -wmo -module-name SwiftProtobuf -emit-module -emit-module-path "$OUT/SwiftProtobuf.swiftmodule" \
  -enable-upcoming-feature ExistentialAny -c -o "$OUT/SwiftProtobuf.o" $(find .build/checkouts/swift-protobuf/Sources/SwiftProtobuf -name '*.swift')
read -r -a REALTIME_MODULES <<< "$(python3 Fuzz/modules.py TransitRealtime)"
REALTIME_LIBS=("$OUT/SwiftProtobuf.o")
for module in "${REALTIME_MODULES[@]}"; do build_module "$module"; REALTIME_LIBS+=("$OUT/$module.o"); done
(cd "$OUT" && swiftc "${FLAGS[@]}" -wmo -module-name TransitRealtime -I "$OUT" -o "$OUT/realtime-fuzz" \
  $(find "$ROOT/Sources/TransitRealtime" -name '*.swift') "$ROOT/Fuzz/RealtimeFuzzTarget.swift" \
  "$ROOT/Fuzz/BundleFuzzTarget.swift" "$ROOT/Fuzz/RealtimeExtremesFuzzTarget.swift" \
  "${REALTIME_LIBS[@]}" -lsqlite3 -lz -lcrypto)
# The bundles the targets read: BART's static feed (paired with its captures) for the
# realtime targets, the samples for the packed columns' seeds. Without them the targets
# would reach nothing: stop here instead.
swift build --product gtfs-compile >/dev/null
[ -f "$SHARED/realtime/bart-rt.zip" ] || { echo "fuzz: needs $SHARED/realtime (set SHARED)" >&2; exit 1; }
# A bundle older than the compiler is compiled again (a new table must reach the targets).
current() { [ -f "$1" ] && [ "$1" -nt .build/debug/gtfs-compile ]; }
current "$OUT/bart-rt.db" || .build/debug/gtfs-compile "$SHARED/realtime/bart-rt.zip" -o "$OUT/bart-rt.db" --quiet
# bundle-v2: the same feed with a fares v2 set (Fuzz/add_fares_v2.py), so edits reach that pricer.
if ! current "$OUT/bart-rt-v2.db"; then
  rm -rf "$OUT/bart-rt-v2" && mkdir -p "$OUT/bart-rt-v2" && unzip -q "$SHARED/realtime/bart-rt.zip" -d "$OUT/bart-rt-v2"
  python3 Fuzz/add_fares_v2.py "$OUT/bart-rt-v2" && .build/debug/gtfs-compile "$OUT/bart-rt-v2" -o "$OUT/bart-rt-v2.db" --quiet
fi
current "$OUT/samples.db" || .build/debug/gtfs-compile gtfs-samples/metro gtfs-samples/valley --cities gtfs-samples/cities.json -o "$OUT/samples.db" --quiet
# bundle-pathways: WMATA's feed, the one with pathways.txt (and fares v1), so edits reach
# the stations' pathways and the fare tables.
current "$OUT/wmata.db" || .build/debug/gtfs-compile "$SHARED/feeds/wmata.zip" -o "$OUT/wmata.db" --quiet

seed() {
  local target=$1 dir="$OUT/corpus-$1"
  mkdir -p "$dir"
  case $target in
    csv) cp gtfs-samples/metro/*.txt gtfs-samples/valley/*.txt "$dir/" 2>/dev/null || true
         if [ -d "$SHARED/broken" ]; then for z in "$SHARED"/broken/*.zip; do unzip -o -q "$z" -d "$dir/$(basename "$z" .zip)" 2>/dev/null || true; done
         find "$dir" -mindepth 2 -type f -exec sh -c 'cp "$1" "'"$dir"'/$(echo "$1" | md5sum | cut -c1-12)"' _ {} \; ; find "$dir" -mindepth 1 -type d -exec rm -rf {} +; fi ;;
    zip) cp Tests/Fixtures/zips/*.zip "$dir/"; [ -d "$SHARED/broken" ] && cp "$SHARED"/broken/*.zip "$dir/" || true ;;
    fields) for s in 08:00:00 25:10:00 5:07:09 20260329 -12 48.5839 2026-03-29 "Zürich HB" ""; do printf '%s' "$s" > "$dir/$(printf '%s' "$s" | md5sum | cut -c1-12)"; done ;;
    packed) python3 Fuzz/packed_seeds.py "$OUT/samples.db" "$OUT/bart-rt.db" "$dir" ;;
    realtime|realtime-merge) cp "$SHARED"/realtime/*.pb "$dir/"; printf '\x0a\x05\x0a\x03\x32\x2e\x30' > "$dir/header" ;;
    bundle|bundle-v2|bundle-pathways|realtime-extremes) python3 -c 'import random, sys; r = random.Random(7)
for i in range(1, 17): open(f"{sys.argv[1]}/seed-{i}", "wb").write(bytes(r.randrange(256) for _ in range(12 * i)))' "$dir" ;;
    patch) python3 Fuzz/patch_seeds.py .build/debug/gtfs-compile "$OUT/samples.db" "$dir" ;;
    json) cp gtfs-samples/cities.json schemas/city.schema.json "$dir/"; printf '%s' '{"id":1,"op":"departures","stop":"S","at":"2026-03-29T08:00"}' > "$dir/batch" ;;
  esac
}

for target in ${FUZZ_TARGETS:-csv zip fields json packed patch realtime realtime-merge realtime-extremes bundle bundle-v2 bundle-pathways}; do
  seed "$target"
  mkdir -p "Fuzz/findings/$target"
  echo "== $target: $SECONDS_PER_TARGET s"
  harness="$OUT/gtfs-fuzz"
  bundle="$OUT/bart-rt.db"
  name=$target
  case $target in
    realtime*|bundle) harness="$OUT/realtime-fuzz" ;;
    bundle-v2) harness="$OUT/realtime-fuzz"; bundle="$OUT/bart-rt-v2.db"; name=bundle ;;
    bundle-pathways) harness="$OUT/realtime-fuzz"; bundle="$OUT/wmata.db"; name=bundle ;;
    patch) bundle="$OUT/samples.db" ;;
  esac
  [ -n "$(ls -A "$OUT/corpus-$target")" ] || { echo "fuzz: the $target corpus is empty" >&2; exit 1; }
  FUZZ_TARGET=$name FUZZ_BUNDLE="$bundle" FUZZ_CAPTURE="$SHARED/realtime/bart-trip-updates.pb" "$harness" "$OUT/corpus-$target" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 \
    -timeout=10 -max_len=1048576 -artifact_prefix="Fuzz/findings/$target/" -print_final_stats=1 2> "$OUT/$target.log" || true
  summary=$(grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY" "$OUT/$target.log" | tr '\n' ' ')
  echo "$(date -u +%Y-%m-%dT%H:%MZ) $target ${SECONDS_PER_TARGET}s $summary" | tee -a Fuzz/findings/log.txt
done
ls Fuzz/findings/*/ 2>/dev/null | grep -E "crash|leak|timeout|oom" && echo "findings above" || echo "no crashes"
