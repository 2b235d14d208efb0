#!/usr/bin/env python3
"""Seeds for the patch fuzzer: the sections of real patches (what follows the two content
hashes), from the sample bundle to copies of it edited as a new timetable or a crafted
bundle would be.

Usage: patch_seeds.py GTFS_COMPILE BASE.db CORPUS_DIR
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

EDITS = [
    "UPDATE stops SET name = name || ' Nord' WHERE sid = (SELECT min(sid) FROM stops)",
    "DELETE FROM transfers",
    "INSERT INTO pathways VALUES (90, 1, 2, 1, 1, 10, NULL, NULL)",
    "UPDATE trip_blocks SET entries = substr(entries, 1, length(entries) - 1) || x'00' WHERE first_tid = (SELECT min(first_tid) FROM trip_blocks)",
    "UPDATE cities SET cost_of_living = 1e300",
    "UPDATE metadata SET value = 'x' WHERE key = 'label'",
]


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def sections(patch):
    """The bytes after the header's two hashes, before the 64-byte checksum."""
    at = len(b"TRNBPATCH\n")
    _, at = varint(patch, at)  # format version
    _, at = varint(patch, at)  # schema version
    for _ in range(2):
        length, at = varint(patch, at)
        at += length
    return patch[at:-64]


def main():
    compile_tool, base, corpus = sys.argv[1:]
    os.makedirs(corpus, exist_ok=True)
    work = tempfile.mkdtemp()
    for n, sql in enumerate(EDITS):
        edited = os.path.join(work, f"edited-{n}.db")
        shutil.copyfile(base, edited)
        db = sqlite3.connect(edited)
        db.executescript(sql)
        db.commit()
        db.close()
        patch = os.path.join(work, f"seed-{n}.patch")
        if subprocess.run([compile_tool, "diff", base, edited, "-o", patch], capture_output=True).returncode != 0:
            continue
        with open(patch, "rb") as f:
            body = sections(f.read())
        with open(os.path.join(corpus, f"patch-{n}"), "wb") as f:
            f.write(body)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
