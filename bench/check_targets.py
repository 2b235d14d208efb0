#!/usr/bin/env python3
"""make bench-targets: checks every figure of bench/targets.json against its limit.

Usage: check_targets.py BIN WORK SHARED [--sizes-only]

Runs each target's command once (a command shared by several targets runs once), reads
the figure its pattern captures, and prints it beside its limit; compiles each shared feed
(and WORK/cts-x40.zip) for the size limits. Exits 1 when a figure passes its limit or cannot be read.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import zipfile

BENCH = os.path.dirname(os.path.abspath(__file__))


def run(command):
    result = subprocess.run(shlex.split(command), capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{command}: exit {result.returncode}: {result.stderr.strip()[:400]}")
    return result.stdout


def table_bytes(bundle, tables):
    names = ", ".join(f"'{t}'" for t in tables)
    out = subprocess.run(
        ["sqlite3", bundle, f"SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN ({names})"],
        capture_output=True, text=True, check=True).stdout
    return int(out.strip() or 0)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 3:
        sys.exit(__doc__)
    binary, work, shared = args
    sizes_only = "--sizes-only" in sys.argv
    with open(os.path.join(BENCH, "targets.json")) as f:
        spec = json.load(f)
    failures = 0

    def report(name, value, limit, unit):
        nonlocal failures
        ok = value <= limit
        failures += 0 if ok else 1
        shown = f"{value:,}" if float(value).is_integer() else f"{value:g}"
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {shown} {unit} (at most {limit:,})")

    if not sizes_only:
        outputs = {}
        for target in spec["targets"]:
            command = target["command"].format(bin=binary, work=work, shared=shared)
            try:
                if command not in outputs:
                    outputs[command] = run(command)
                found = re.search(target["pattern"], outputs[command])
                if not found:
                    raise RuntimeError(f"no figure matching {target['pattern']!r} in the output of {command}")
                report(target["name"], float(found.group(1)), target["max"], target["unit"])
            except RuntimeError as error:
                failures += 1
                print(f"FAIL {target['name']}: {error}")

    sizes = spec["sizes"]
    os.makedirs(work, exist_ok=True)
    for feed, limit in sorted(sizes["max_bytes"].items()):
        source = os.path.join(shared, "feeds", feed + ".zip")
        out = os.path.join(work, f"target-{feed}.db")
        run(f"{binary}/gtfs-compile {shlex.quote(source)} -o {shlex.quote(out)} --quiet")
        report(f"bundle of {feed}", os.path.getsize(out), limit, "bytes")
        if feed in sizes["max_fare_tables_to_csv"]:
            with zipfile.ZipFile(source) as z:
                csv = sum(z.getinfo(n).file_size for n in ("fare_attributes.txt", "fare_rules.txt") if n in z.namelist())
            fares = table_bytes(out, ["fare_classes", "currencies", "fare_zone_names", "fare_zones"])
            report(f"fare tables of {feed} / their CSV ({fares} / {csv} bytes)", round(fares / csv, 3),
                   sizes["max_fare_tables_to_csv"][feed], "x")
    for name, limit in sorted(sizes["max_bytes_per_stop_time"].items()):
        source = os.path.join(work, name + ".zip")
        if not os.path.exists(source):
            failures += 1
            print(f"FAIL {name}: {source} is missing (make bench makes it)")
            continue
        bundle = os.path.join(work, f"target-{name}.db")
        run(f"{binary}/gtfs-compile {shlex.quote(source)} -o {shlex.quote(bundle)} --quiet")
        info = json.loads(run(f"{binary}/transit-query info --bundle {shlex.quote(bundle)} --json"))
        report(f"{name} bytes per stop_time", round(os.path.getsize(bundle) / info["stop_times"], 3), limit, "B")
    print(f"{failures} target(s) missed" if failures else "every target met")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
