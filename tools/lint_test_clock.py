#!/usr/bin/env python3
"""Refuses the wall clock in test code (`make lint`).

No test may depend on the day it runs (the sample feeds end; staleness, boards and plans at
"now" change meaning on that day). In Tests/ and Fuzz/ this refuses:
  - `Date()` and `Date.now` (fixed days are in TestKit's TestClock; waits use its
    `TestClock.wait`, which reads the monotonic clock);
  - a store `status()` without `on:` (it judges staleness on today);
  - a command line `["status"`, `["departures"`, `["arrivals"` or `["plan"` without `--on`
    or `--at` on the same line (they default to now).
Prints `file:line: reason` for each finding and exits 1 if there is any.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = [
    (re.compile(r"\bDate\(\)|\bDate\.now\b"), "the wall clock in a test: use TestClock's fixed days or TestClock.wait"),
    (re.compile(r"\.status\(\)"), "status() judges staleness on today: pass on: TestClock.metroDay"),
]
COMMANDS = re.compile(r'\[\s*"(status|departures|arrivals|plan)"\s*,')


def findings(path: pathlib.Path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        code = line.split("//", 1)[0] if not line.lstrip().startswith("///") else ""
        for pattern, reason in RULES:
            if pattern.search(code):
                yield number, reason
        match = COMMANDS.search(code)
        if match:
            flag = "--on" if match.group(1) == "status" else "--at"
            if f'"{flag}"' not in code:
                yield number, f'`{match.group(1)}` without {flag} asks about today: give a fixed day'


def main() -> int:
    bad = 0
    for folder in ("Tests", "Fuzz"):
        for path in sorted((ROOT / folder).rglob("*.swift")):
            for number, reason in findings(path):
                print(f"{path.relative_to(ROOT)}:{number}: {reason}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
