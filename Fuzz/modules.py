#!/usr/bin/env python3
"""The package's Swift library modules a target needs, in dependency order, read from
Package.swift (`swift package describe --type json`): what Fuzz/run.sh compiles before a
harness, so the harness follows the module graph instead of a copy of it.

    python3 Fuzz/modules.py TARGET [--with-target]

System library targets (CSQLite, CZlib, CCrypto) are left out: run.sh passes their headers
with -I and links the system libraries.
"""
import json
import subprocess
import sys


def main() -> int:
    target = sys.argv[1]
    description = json.loads(subprocess.run(
        ["swift", "package", "describe", "--type", "json"], check=True, capture_output=True, text=True).stdout)
    targets = {t["name"]: t for t in description["targets"]}
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order or targets[name]["type"] == "system-target":
            return
        for dependency in targets[name].get("target_dependencies", []):
            visit(dependency)
        order.append(name)

    visit(target)
    if "--with-target" not in sys.argv:
        order.remove(target)
    print(" ".join(order))
    return 0


if __name__ == "__main__":
    sys.exit(main())
