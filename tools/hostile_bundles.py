#!/usr/bin/env python3
"""Crafted bundles from a real one, and every query kind on each (issue: no bundle may
crash, hang or exhaust the runtime).

Usage: hostile_bundles.py BIN_DIR BUNDLE WORK_DIR [--seed N] [--limit N] [--tables T1,T2,...]

Makes one copy of BUNDLE per mutation in WORK_DIR: each integer column of each plain table
set to an extreme (0, -1, 2^31, -2^31, 2^63-1, -2^63, its largest value + 1) on one row (and
on all rows), each real column to infinity, minus infinity and 1e300, each text column to
20 MB on one row, packed columns truncated, emptied or with a byte flipped, and a required
table swapped for a view (`--tables`: only those tables' columns). Then runs `transit-query
info`, `departures` (also with `--lang`), `arrivals`, `stops`, `trip`, `plan` (also
wheelchair, at the slowest walking speed), `fare`, `route`, `shape`, `city`, `cities` on
each, with a 30 s limit, and reports any run that ended by a signal, ran out of time or held
more than 1 GB. Exits 1 when any did.
"""
import os
import random
import shutil
import sqlite3
import subprocess
import sys

EXTREMES = [0, -1, 2**31, -(2**31), 2**63 - 1, -(2**63)]
REAL_EXTREMES = ["1e999", "-1e999", "1e300"]
LIMIT_SECONDS = 30
LIMIT_KB = 1024 * 1024


def plain_tables(db):
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'").fetchall()
    return [(name, sql) for name, sql in rows if not name.startswith("sqlite_") and "_fts_" not in name and not name.startswith("cities_fts")]


def columns(db, table):
    return [(c[1], (c[2] or "").upper()) for c in db.execute(f"PRAGMA table_info({table})")]


def mutations(source, rng, tables=None):
    db = sqlite3.connect(source)
    out = []
    for table, sql in plain_tables(db):
        if tables and table not in tables:
            continue
        count = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        if count == 0:
            continue
        without_rowid = "WITHOUT ROWID" in (sql or "").upper()
        for column, kind in columns(db, table):
            if kind == "INTEGER":
                largest = db.execute(f"SELECT max({column}) FROM {table}").fetchone()[0] or 0
                for value in EXTREMES + [largest + 1]:
                    if without_rowid:
                        out.append((f"{table}.{column}={value} all", f"UPDATE OR IGNORE {table} SET {column} = {value}"))
                    else:
                        k = rng.randrange(count)
                        out.append((f"{table}.{column}={value} row {k}",
                                    f"UPDATE OR IGNORE {table} SET {column} = {value} WHERE rowid = (SELECT rowid FROM {table} LIMIT 1 OFFSET {k})"))
            elif kind == "REAL" and not without_rowid:
                k = rng.randrange(count)
                for value in REAL_EXTREMES:
                    out.append((f"{table}.{column}={value} row {k}",
                                f"UPDATE OR IGNORE {table} SET {column} = {value} WHERE rowid = (SELECT rowid FROM {table} LIMIT 1 OFFSET {k})"))
            elif kind == "TEXT" and not without_rowid:
                k = rng.randrange(count)
                out.append((f"{table}.{column}=20 MB row {k}",
                            f"UPDATE OR IGNORE {table} SET {column} = printf('%.*c', 20000000, 'x') WHERE rowid = (SELECT rowid FROM {table} LIMIT 1 OFFSET {k})"))
            elif kind == "BLOB":
                where = "" if without_rowid else f" WHERE rowid = (SELECT rowid FROM {table} LIMIT 1 OFFSET {rng.randrange(count)})"
                out.append((f"{table}.{column} truncated", f"UPDATE {table} SET {column} = substr({column}, 1, length({column}) / 2){where}"))
                out.append((f"{table}.{column} empty", f"UPDATE {table} SET {column} = x''{where}"))
                out.append((f"{table}.{column} ff", f"UPDATE {table} SET {column} = x'ffffffffffffffffffff' || {column}{where}"))
    for table in [] if tables else ["stops", "feeds", "patterns", "calendar", "transfers", "metadata", "frequencies", "trip_blocks"]:
        cols = ", ".join(c for c, _ in columns(db, table))
        out.append((f"{table} as a view", f"ALTER TABLE {table} RENAME TO old_{table}; CREATE VIEW {table} AS SELECT {cols} FROM old_{table}"))
    return out


def run(binary, args):
    command = ["/usr/bin/time", "-f", "%M", binary] + args
    try:
        done = subprocess.run(command, capture_output=True, timeout=LIMIT_SECONDS, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout"
    lines = done.stderr.strip().splitlines()
    rss = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    if done.returncode != 0 and "Command terminated by signal" in done.stderr:
        return "signal: " + " | ".join(lines[-3:])
    if rss > LIMIT_KB:
        return f"{rss // 1024} MB resident"
    if done.returncode >= 128:
        return f"exit {done.returncode}: " + " | ".join(lines[-3:])
    return None


def main():
    args = sys.argv[1:]
    seed = 1
    limit = None
    if "--seed" in args:
        i = args.index("--seed"); seed = int(args[i + 1]); del args[i:i + 2]
    if "--limit" in args:
        i = args.index("--limit"); limit = int(args[i + 1]); del args[i:i + 2]
    tables = None
    if "--tables" in args:
        i = args.index("--tables"); tables = set(args[i + 1].split(",")); del args[i:i + 2]
    bin_dir, source, work = args
    os.makedirs(work, exist_ok=True)
    rng = random.Random(seed)
    db = sqlite3.connect(source)
    stop = db.execute("SELECT stop_id FROM stops s WHERE EXISTS (SELECT 1 FROM stop_patterns p WHERE p.sid = s.sid) LIMIT 1 OFFSET 3").fetchone()[0]
    other = db.execute("SELECT stop_id FROM stops s WHERE EXISTS (SELECT 1 FROM stop_patterns p WHERE p.sid = s.sid) ORDER BY sid DESC LIMIT 1").fetchone()[0]
    first_date = db.execute("SELECT min(first_service_date) FROM feeds").fetchone()[0]
    day = f"{str(first_date)[:4]}-{str(first_date)[4:6]}-{str(first_date)[6:]}"
    route = db.execute("SELECT route_id FROM dict_route LIMIT 1").fetchone()[0]
    trip = subprocess.run([os.path.join(bin_dir, "transit-query"), "departures", "--stop", stop, "--at", day + "T08:00",
                           "--window", "600", "--json", "--bundle", source], capture_output=True, text=True).stdout
    import json
    board = json.loads(trip or "[]")
    trip = board[0]["trip_id"] if board else "none"
    db.close()
    query = os.path.join(bin_dir, "transit-query")
    cases = mutations(source, rng, tables)
    if limit:
        cases = cases[:limit]
    bad = []
    for n, (name, sql) in enumerate(cases):
        path = os.path.join(work, f"case-{n}.db")
        shutil.copyfile(source, path)
        try:
            edit = sqlite3.connect(path)
            edit.executescript(sql)
            edit.commit()
            edit.close()
        except sqlite3.Error as error:
            os.remove(path)
            continue
        b = ["--bundle", path]
        runs = [
            ["info"] + b,
            ["departures", "--stop", stop, "--at", day + "T08:00", "--window", "180"] + b,
            ["arrivals", "--stop", stop, "--at", day + "T08:00"] + b,
            ["stops", "--search", stop[:3]] + b,
            ["stops", "--near", "48.58,7.75"] + b,
            ["plan", "--from", stop, "--to", other, "--at", day + "T08:00"] + b,
            ["plan", "--from", stop, "--to", other, "--at", day + "T08:00", "--wheelchair", "--walk-speed", "0.100000001"] + b,
            ["plan", "--from", "48.58,7.75", "--to", other, "--at", day + "T08:00", "--json"] + b,
            ["fare", "--from", stop, "--to", other, "--at", day + "T08:00"] + b,
            ["departures", "--stop", stop, "--at", day + "T08:00", "--lang", "de", "--json"] + b,
            ["cities", "--search", "san fr"] + b,
            ["cities", "--near", "48.58,7.75"] + b,
            ["city", "zurich"] + b,
            ["route", route] + b,
            ["routes", "--stop", stop] + b,
            ["transfers", "--stop", stop] + b,
            ["trip", "--trip", trip, "--date", day] + b,
            ["shape", "--route", route] + b,
            ["nearest", "--near", "48.58,7.75"] + b,
        ]
        for r in runs:
            problem = run(query, r)
            if problem:
                bad.append(f"{name}: transit-query {' '.join(r[:1])}: {problem}")
                print(bad[-1], flush=True)
        os.remove(path)
    print(f"{len(cases)} crafted bundles, {len(bad)} runs ended badly")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
