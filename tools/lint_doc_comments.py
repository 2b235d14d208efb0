#!/usr/bin/env python3
"""Every public declaration of the libraries has a doc comment.

Lists `public` (and `open`) types, functions, initialisers, properties, subscripts and
typealiases in Sources/ that have no `///` comment right above them (attributes such as
`@discardableResult` may stand between). Not checked: generated code (`Generated/`),
executables (they have no public API), and the members that implement a standard
protocol requirement and are documented by it (`init(from:)`, `encode(to:)`,
`description`, `errorDescription`, `hash(into:)`, comparison operators, `id`, `rawValue`).
Exits 1 naming file and line of each undocumented declaration.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIBRARIES = {"TransitRuntime", "TransitCities", "TransitRealtime", "TransitStore", "GTFSCompiler", "BundleFormat"}
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|override|convenience|nonisolated|mutating|indirect|required|package)\s+)*"
    r"(struct|class|actor|enum|protocol|func|init|var|let|subscript|typealias)\b[\s?!]*(`?[\w<>=!]*`?)"
)
WITNESSES = {"description", "errorDescription", "failureReason", "recoverySuggestion", "id", "rawValue", "debugDescription"}


def witness(kind: str, name: str, line: str) -> bool:
    if kind == "init" and "from decoder" in line:
        return True
    if kind == "init" and re.search(r"init\??\(rawValue:", line):
        return True
    if kind == "func" and (name in {"encode", "hash"} and ("to encoder" in line or "into hasher" in line)):
        return True
    if kind == "func" and re.search(r"func\s*(<|==|>|<=|>=)\s*\(", line):
        return True
    if kind == "func" and re.search(r"static func (<|==)", line):
        return True
    if kind in {"var", "let"} and name in WITNESSES:
        return True
    return False


def main() -> int:
    missing = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT)
        if "Generated" in relative.parts or relative.parts[1] not in LIBRARIES:
            continue
        lines = path.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(lines):
            match = DECLARATION.match(line)
            if not match:
                continue
            kind, name = match.group(1), match.group(2).strip("`")
            if witness(kind, name, line):
                continue
            above = number - 1
            while above >= 0 and re.match(r"^\s*(@\w+|#if|#else|#endif)", lines[above]):
                above -= 1
            if above >= 0 and lines[above].strip().startswith("///"):
                continue
            missing.append((f"{relative}: {kind} {name}", number + 1))
    for key, line in missing:
        print(f"{key.split(':')[0]}:{line}: public {key.split(': ', 1)[1]} has no doc comment")
    if missing:
        print(f"{len(missing)} public declarations without a doc comment", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
