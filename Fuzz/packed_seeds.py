#!/usr/bin/env python3
"""Seeds the `packed` fuzz target with every packed column of real bundles.

Usage: packed_seeds.py BUNDLE [BUNDLE ...] CORPUS_DIR
Writes each distinct blob (pattern stops and trips, stop patterns, trip id blocks, shapes,
service dates, the planner's sequences and routes) as one file named by its hash; fails when no blob was found, so that the
target never runs on a token corpus.
"""
import hashlib
import pathlib
import sqlite3
import sys

COLUMNS = [
    ("patterns", "stops"),
    ("patterns", "trips"),
    ("trip_blocks", "entries"),
    ("stop_patterns", "entries"),
    ("service_blocks", "entries"),
    ("shapes", "edges"),
    ("shape_edges", "points"),
    ("trip_ids", "tids"),
    ("service_dates", "added"),
    ("service_dates", "removed"),
    ("planner_sequences", "stops"),
    ("planner_routes", "trips"),
]


def main() -> int:
    *bundles, corpus = sys.argv[1:]
    out = pathlib.Path(corpus)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in bundles:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        tables = {row[0]: {c[1] for c in db.execute(f"PRAGMA table_info({row[0]})")}
                  for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, column in COLUMNS:
            if column not in tables.get(table, set()):
                continue
            for (blob,) in db.execute(f"SELECT {column} FROM {table} WHERE typeof({column}) = 'blob' LIMIT 400"):
                name = hashlib.sha256(blob).hexdigest()[:16]
                target = out / name
                if not target.exists():
                    target.write_bytes(blob)
                    written += 1
    if written == 0 and not any(out.iterdir()):
        print("packed_seeds: no packed column found in " + ", ".join(bundles), file=sys.stderr)
        return 1
    print(f"packed_seeds: {written} new seeds in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
