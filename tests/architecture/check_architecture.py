#!/usr/bin/env python3
"""Checks docs/ARCHITECTURE.md's area table against the build.

The build writes architecture_links.txt at configure time (cmake/Architecture.cmake): one line per
library or program of this project, "target: the project targets it links". The table's rows name
each target in its second column and what it links in its last column (backticked target names, or
"none"). The test fails, naming every difference, when a target is missing from the table, the table
names a target the build does not have, or the links differ.

usage: check_architecture.py ARCHITECTURE.md architecture_links.txt
"""
import re
import sys


def table_links(doc_text):
    """{target: set(links)} from the rows of the table whose header has a 'links' column."""
    rows = {}
    in_table = False
    links_col = target_col = None
    for line in doc_text.splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not in_table:
            lowered = [c.lower() for c in cells]
            if "target" in lowered and any(c.startswith("links") for c in lowered):
                in_table = True
                target_col = lowered.index("target")
                links_col = next(i for i, c in enumerate(lowered) if c.startswith("links"))
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue  # the separator row
        targets = re.findall(r"`([^`]+)`", cells[target_col])
        links = set(re.findall(r"`([^`]+)`", cells[links_col]))
        for t in targets:
            rows[t] = links
    return rows


def build_links(text):
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        target, _, deps = line.partition(":")
        # "webgpu_bench::x: a b" splits at the first ':' of the alias: rejoin.
        m = re.match(r"^(.*?): (.*)$|^(.*?):$", line)
        target = (m.group(1) or m.group(3)).strip()
        deps = (m.group(2) or "").split()
        out[target] = set(deps)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = table_links(f.read())
    with open(sys.argv[2], encoding="utf-8") as f:
        built = build_links(f.read())
    if not doc:
        print(f"{sys.argv[1]}: no table with 'target' and 'links' columns")
        return 1
    problems = []
    for t in sorted(built.keys() - doc.keys()):
        problems.append(f"{t}: built, but not in the table")
    for t in sorted(doc.keys() - built.keys()):
        problems.append(f"{t}: in the table, but the build has no such target")
    for t in sorted(built.keys() & doc.keys()):
        if built[t] != doc[t]:
            extra = ", ".join(sorted(built[t] - doc[t])) or "nothing"
            missing = ", ".join(sorted(doc[t] - built[t])) or "nothing"
            problems.append(f"{t}: the build also links {extra}; the table also lists {missing}")
    for p in problems:
        print(f"ARCHITECTURE.md drifted from the build: {p}")
    if not problems:
        print(f"{len(built)} targets: the table matches the build")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
