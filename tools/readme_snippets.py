#!/usr/bin/env python3
"""Copies the Swift code blocks of README.md, docs/*.md and the DocC articles
(Sources/*/*.docc/*.md) into
Examples/ReadmeSnippets/Snippets.swift, each block as the body of one function, so that
`swift build` compiles what the documentation shows.

    python3 tools/readme_snippets.py          # rewrite the Swift file (`make snippets`)
    python3 tools/readme_snippets.py --check  # exit 1 when the file is not the docs' blocks
    python3 tools/readme_snippets.py --check --readme OTHER.md   # the same with OTHER.md for README.md

App-side names the blocks use (a progress view, an alert) are declared in AppStubs.swift.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
OUTPUT = ROOT / "Examples" / "ReadmeSnippets" / "Snippets.swift"


def blocks(text):
    """(heading above it, lines) of each ```swift block."""
    found, current, start, heading, other = [], None, "", "the top", False
    for line in text.splitlines():
        if current is None and line.startswith("```") and line.strip() != "```swift":
            other = not other  # a fence of another language opens or closes
            continue
        if other:
            continue
        if current is None and line.startswith("#"):
            heading = line.lstrip("#").strip()
        if current is None and line.strip() == "```swift":
            current, start = [], heading
        elif current is not None and line.strip() == "```":
            found.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return found


def render(texts):
    """`texts`: (file name, text) of each document, in order."""
    imports = set()
    functions = []
    found = [(name, heading, body) for name, text in texts for heading, body in blocks(text)]
    for index, (name, heading, body) in enumerate(found, 1):
        code = []
        for source in body:
            match = re.match(r"^import (\w+)\s*(//.*)?$", source)
            if match:
                imports.add(match.group(1))
            else:
                code.append(source)
        # Constants a block declares and does not use again are read once, so the build
        # (warnings as errors in CI) does not call them unused.
        names = re.findall(r"^let (\w+) =", "\n".join(code), re.MULTILINE)
        is_async = any("await" in source for source in code)
        lines = [f"/// {name}, under \"{heading}\".", f"func readmeBlock{index}() {'async ' if is_async else ''}throws {{"]
        lines += [("    " + source).rstrip() for source in code]
        if names:
            lines.append("    _ = (" + ", ".join(names) + ")" if len(names) > 1 else f"    _ = {names[0]}")
        lines.append("}")
        functions.append("\n".join(lines))
    header = [
        "// swift-format-ignore-file",
        "// Generated from README.md, docs/*.md and the DocC articles by `make snippets` (tools/readme_snippets.py). Do not edit.",
    ]
    header += [f"import {name}" for name in sorted(imports | {"Foundation"})]
    return "\n".join(header) + "\n\n" + "\n\n".join(functions) + "\n"


def main():
    arguments = sys.argv[1:]
    readme = pathlib.Path(arguments[arguments.index("--readme") + 1]) if "--readme" in arguments else README
    texts = [("README.md", readme.read_text(encoding="utf-8"))]
    texts += [(f"docs/{doc.name}", doc.read_text(encoding="utf-8")) for doc in sorted(DOCS.glob("*.md"))]
    texts += [(str(doc.relative_to(ROOT)), doc.read_text(encoding="utf-8")) for doc in sorted(ROOT.glob("Sources/*/*.docc/*.md"))]
    wanted = render(texts)
    if "--check" in arguments:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != wanted:
            print(f"{OUTPUT.relative_to(ROOT)} is not the code of README.md, docs/ and the DocC articles: run `make snippets`", file=sys.stderr)
            return 1
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
