#!/usr/bin/env bash
# make bench: compile speed, memory and size, and query latencies, on the real feeds.
# Needs ../shared (feeds, cities, tools). Prints a report; numbers go into docs/performance.md and bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
WORK=${BENCH_DIR:-/tmp/transit-bench}
BIN=.build/release
mkdir -p "$WORK"
[ -d "$SHARED/feeds" ] || { echo "bench needs $SHARED/feeds"; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
# Wall seconds, peak KB and CPU seconds (user + system).
timed() { /usr/bin/time -f "%e %M %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1, $2, $3 + $4}'; }

compile_report() {
  local name=$1 feed=$2 out="$WORK/$1.db"
  local unzip_times="" unzip_cpu="" compile_times="" compile_cpu="" memory=0
  for i in 1 2 3; do
    read -r t m cpu < <(timed unzip -p "$feed")
    unzip_times+="$t"$'\n'; unzip_cpu+="$cpu"$'\n'
    read -r t m cpu < <(timed $BIN/gtfs-compile "$feed" -o "$out" --quiet)
    compile_times+="$t"$'\n'; compile_cpu+="$cpu"$'\n'
    memory=$m
  done
  local u uc c cc st bytes
  u=$(printf '%s' "$unzip_times" | median); c=$(printf '%s' "$compile_times" | median)
  uc=$(printf '%s' "$unzip_cpu" | median); cc=$(printf '%s' "$compile_cpu" | median)
  st=$($BIN/transit-query info --bundle "$out" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["stop_times"])')
  bytes=$(stat -c %s "$out")
  gz=$(gzip -c "$out" | wc -c)
  printf '%-16s stop_times %9d | unzip -p %6.2f s (CPU %5.2f s) | compile %6.2f s (%.2fx unzip), CPU %5.2f s (%.2fx unzip CPU) | peak %5d MB | bundle %6.2f MB = %5.2f B/stop_time, gzip %5.2f B/stop_time\n' \
    "$name" "$st" "$u" "$uc" "$c" "$(echo "$c / $u" | bc -l)" "$cc" "$(echo "$cc / $uc" | bc -l)" $((memory / 1024)) \
    "$(echo "$bytes / 1000000" | bc -l)" "$(echo "$bytes / $st" | bc -l)" "$(echo "$gz / $st" | bc -l)"
}

echo "== compile (median of 3 runs; unzip -p measured in the same run; CPU = user + system seconds)"
compile_report cts-strasbourg "$SHARED/feeds/cts-strasbourg.zip"
if [ ! -f "$WORK/cts-x10.zip" ]; then python3 "$SHARED/tools/scale_feed.py" "$SHARED/feeds/cts-strasbourg.zip" "$WORK/cts-x10.zip" 10; fi
compile_report cts-x10 "$WORK/cts-x10.zip"

# The next version of a feed (evolve_feed.py), compiled with and without --base, diffed and patched.
update_report() {
  local name=$1 feed=$2 v1="$WORK/$1.db" v2zip="$WORK/$1-v2.zip" v2="$WORK/$1-v2.db"
  [ -f "$v2zip" ] || python3 "$SHARED/tools/evolve_feed.py" "$feed" "$v2zip" >/dev/null
  local plain="" based=""
  for i in 1 2 3; do
    plain+="$(seconds $BIN/gtfs-compile "$name=$v2zip" -o "$WORK/$name-v2-plain.db" --quiet | cut -d' ' -f1)"$'\n'
    based+="$(seconds $BIN/gtfs-compile "$name=$v2zip" --base "$v1" -o "$v2" --quiet | cut -d' ' -f1)"$'\n'
  done
  local p b
  p=$(printf '%s' "$plain" | median); b=$(printf '%s' "$based" | median)
  read -r dt dm < <(seconds $BIN/gtfs-compile diff "$v1" "$v2" -o "$WORK/$name.patch")
  read -r at am < <(seconds $BIN/gtfs-compile patch "$v1" "$WORK/$name.patch" -o "$WORK/$name-patched.db")
  local raw gz full
  raw=$(stat -c %s "$WORK/$name.patch"); gz=$(gzip -6 -c "$WORK/$name.patch" | wc -c); full=$(gzip -6 -c "$v2" | wc -c)
  printf '%-16s compile v2 %.2f s, with --base %.2f s (%+.0f %%) | diff %.2f s | patch %d bytes, gzip %d = %.1f %% of the new bundle gzip (%d) | apply %.2f s, peak %d MB\n' \
    "$name" "$p" "$b" "$(echo "($b - $p) * 100 / $p" | bc -l)" "$dt" "$raw" "$gz" "$(echo "$gz * 100 / $full" | bc -l)" "$full" "$at" $((am / 1024))
}

echo "== updates (evolve_feed.py v1 -> v2; medians of 3 compiles)"
update_report cts-strasbourg "$SHARED/feeds/cts-strasbourg.zip"
update_report cts-x10 "$WORK/cts-x10.zip"

echo "== bundle size of every real feed (the fixed cost shows on the smallest)"
for feed in "$SHARED"/feeds/*.zip; do
  name=$(basename "$feed" .zip)
  $BIN/gtfs-compile "$feed" -o "$WORK/feed-$name.db" --quiet 2>/dev/null || { echo "$name: not compiled"; continue; }
  st=$($BIN/transit-query info --bundle "$WORK/feed-$name.db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["stop_times"])')
  bytes=$(stat -c %s "$WORK/feed-$name.db")
  printf '%-20s stop_times %7d  bundle %8d bytes = %7.2f B/stop_time  gzip %7.2f B/stop_time | %s\n' "$name" "$st" "$bytes" \
    "$(echo "$bytes / $st" | bc -l)" "$(echo "$(gzip -c "$WORK/feed-$name.db" | wc -c) / $st" | bc -l)" \
    "$(python3 bench/bundle_bytes.py "$WORK/feed-$name.db" "$feed")"
done

# A generated feed (bench/NAME_feed.py ... with its arguments), compiled, with where its bytes go.
fixture_report() {
  local name=$1 script=$2; shift 2
  [ -f "$WORK/$name.zip" ] || python3 "bench/$script" "$WORK/$name.zip" "$@" > /dev/null
  $BIN/gtfs-compile "$WORK/$name.zip" -o "$WORK/$name.db" --quiet
  printf '%-20s bundle %8d bytes | %s\n' "$name" "$(stat -c %s "$WORK/$name.db")" \
    "$(python3 bench/bundle_bytes.py "$WORK/$name.db" "$WORK/$name.zip")"
}

echo "== generated feeds: a calendar of calendar_dates only (1,918 services over a year, long service ids),"
echo "   14,141 such services, and 8,587 stops with 24,705 stop times (bench/calendar_feed.py, stops_feed.py)"
fixture_report calendar-feed calendar_feed.py 1918 7
fixture_report services-feed calendar_feed.py 14141 7
fixture_report stops-feed stops_feed.py 8587 11

echo "== cities (world-cities-1000.json, 170,391 cities)"
read -r t m < <(seconds $BIN/gtfs-compile --cities "$SHARED/cities/world-cities-1000.json" -o "$WORK/cities.db" --quiet)
printf 'compile %.2f s, peak %d MB, bundle %.1f MB\n' "$t" $((m / 1024)) "$(echo "$(stat -c %s "$WORK/cities.db") / 1048576" | bc -l)"
$BIN/transit-bench cities "$WORK/cities.db" 10000

echo "== lines (shapes) of the feeds with the most shape points (their bytes: the bundle sizes above)"
for name in bart kaunas wmata; do
  echo "-- $name"
  $BIN/transit-bench shapes "$WORK/feed-$name.db" 2000
done

for name in cts-strasbourg cts-x10; do
  echo "== queries on $name"
  # Opening, with the check of the values a bundle from outside could abuse (BundleCheck;
  # targets: under 5 ms on cts-strasbourg, under 50 ms on the 10 x copy).
  $BIN/transit-bench open "$WORK/$name.db" 50
  $BIN/transit-bench departures "$WORK/$name.db" 10000
  $BIN/transit-bench lines "$WORK/$name.db" 2000
  $BIN/transit-bench batch-input "$WORK/$name.db" 50000 > "$WORK/batch.jsonl"
  # One core (one thread), then every core (the default: a thread per core; target on a
  # 2-core machine: >= 25,000 queries/s on cts-strasbourg).
  for cores in one every; do
    start=$(date +%s.%N)
    if [ "$cores" = one ]; then
      taskset -c 0 $BIN/transit-query batch --bundle "$WORK/$name.db" --jobs 1 < "$WORK/batch.jsonl" > "$WORK/batch.out"
    else
      $BIN/transit-query batch --bundle "$WORK/$name.db" < "$WORK/batch.jsonl" > "$WORK/batch.out"
    fi
    end=$(date +%s.%N)
    errors=$(grep -c '"error"' "$WORK/batch.out" || true)
    printf 'batch: 50000 departure queries on %s core(s) (%s) in %.2f s = %.0f queries/s (%s errors)\n' "$cores" "$(nproc)" "$(echo "$end - $start" | bc -l)" "$(echo "50000 / ($end - $start)" | bc -l)" "$errors"
  done
  echo "-- realtime: 10000 synthetic trip updates, live boards"
  $BIN/transit-bench realtime "$WORK/$name.db" 10000
  echo "-- journeys between random stops, 06:00-21:00 (targets: cts p50 <= 2 ms, p99 <= 10 ms, range p50 <= 20 ms, first <= 300 ms, <= 25 MB; 10x p50 <= 10 ms)"
  taskset -c 0 $BIN/transit-bench journeys "$WORK/$name.db" 1000
done

# A country-sized copy (40 x Strasbourg: 21 million stop_times; made here, never
# committed) and a regional bundle of every feed in $SHARED/feeds: the figures of a whole
# region on a phone (compile memory and CPU, size, boards, opening, first journey, journeys).
if [ ! -f "$WORK/cts-x40.zip" ]; then python3 "$SHARED/tools/scale_feed.py" "$SHARED/feeds/cts-strasbourg.zip" "$WORK/cts-x40.zip" 40; fi
echo "== compile, 40 x Strasbourg (targets: peak <= 1 GB, CPU <= 2 x unzip -p)"
compile_report cts-x40 "$WORK/cts-x40.zip"
echo "== compile, every feed of $SHARED/feeds in one regional bundle (one run)"
read -r t m cpu < <(timed $BIN/gtfs-compile "$SHARED"/feeds/*.zip -o "$WORK/regional.db" --quiet)
st=$($BIN/transit-query info --bundle "$WORK/regional.db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["stop_times"])')
bytes=$(stat -c %s "$WORK/regional.db")
printf 'regional         stop_times %9d | compile %6.2f s, CPU %5.2f s | peak %5d MB | bundle %6.2f MB = %5.2f B/stop_time\n' \
  "$st" "$t" "$cpu" $((m / 1024)) "$(echo "$bytes / 1000000" | bc -l)" "$(echo "$bytes / $st" | bc -l)"
for name in cts-x40 regional; do
  echo "== queries on $name (targets at 40 x: board p99 <= 400 us; first journey <= 300 ms, <= +100 MB; depart-at and arrive-by p50 <= 20 ms, p99 <= 60 ms; range p50 <= 80 ms, p99 <= 400 ms)"
  $BIN/transit-bench open "$WORK/$name.db" 20
  $BIN/transit-bench departures "$WORK/$name.db" 10000
  taskset -c 0 $BIN/transit-bench journeys "$WORK/$name.db" 200
done

if [ -f "$SHARED/realtime/bart-rt.zip" ]; then
  echo "== realtime: the BART capture against its bundle (targets: decode + match + index <= 3 ms)"
  $BIN/gtfs-compile "$SHARED/realtime/bart-rt.zip" -o "$WORK/bart-rt.db" > /dev/null
  $BIN/transit-bench realtime "$WORK/bart-rt.db" 0 "$SHARED/realtime/bart-trip-updates.pb"
fi
