#!/usr/bin/env python3
"""Checks that every relative link in the repository's markdown files resolves.

For each tracked *.md file (git ls-files; every *.md under the root outside dot-folders and build*
folders when git cannot list them), every inline link `[text](target)`, image `![alt](target)` and
reference definition `[name]: target` outside fenced code blocks and code spans must name a file or
folder that exists, relative to the markdown file (or to the root for a target starting with '/').
A `#fragment` must name a heading of the target markdown file (GitHub's slug: lower case, spaces to
hyphens, punctuation dropped, repeats numbered -1, -2, ...) or an explicit <a id="...">. Links with a
scheme (https:, mailto:, ...) are not checked. Prints one line per broken link; exit status 1 if any.

usage: check_links.py REPOSITORY_ROOT
"""
import os
import re
import subprocess
import sys
from urllib.parse import unquote

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
EXPLICIT_ID = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "*.md"], check=True,
                             capture_output=True, text=True).stdout
        files = [f for f in out.split("\0") if f]
        if files:
            return sorted(f for f in files if os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("build")]
        found += [os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(".md")]
    return sorted(found)


def prose_lines(text, blank_code_spans=True):
    """(line number, line) outside fenced code blocks, code spans blanked unless told otherwise."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield number, CODE_SPAN.sub(lambda s: " " * len(s.group(0)), line) if blank_code_spans else line


def slug(heading):
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        ids, seen = set(), {}
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line in prose_lines(text, blank_code_spans=False):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
        ids.update(EXPLICIT_ID.findall(text))
        cache[path] = ids
    return cache[path]


def broken_links(root, relative):
    path = os.path.join(root, relative)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for number, line in prose_lines(text):
        targets = [m.group(1) for m in INLINE.finditer(line)]
        ref = REFERENCE.match(line)
        if ref:
            targets.append(ref.group(1))
        for target in targets:
            target = target.strip("<>")
            if SCHEME.match(target):
                continue
            file_part, _, fragment = target.partition("#")
            file_part = unquote(file_part.split("?")[0])
            if file_part.startswith("/"):
                resolved = os.path.join(root, file_part.lstrip("/"))
            elif file_part:
                resolved = os.path.join(os.path.dirname(path), file_part)
            else:
                resolved = path
            if not os.path.exists(resolved):
                yield f"{relative}:{number}: {target}: no such file or folder"
            elif fragment and resolved.endswith(".md") and os.path.isfile(resolved):
                if unquote(fragment) not in anchors(resolved):
                    yield f"{relative}:{number}: {target}: no heading or anchor '{fragment}'"


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = os.path.abspath(sys.argv[1])
    files = markdown_files(root)
    problems = [p for f in files for p in broken_links(root, f)]
    for p in problems:
        print(p)
    print(f"{len(files)} markdown files, {len(problems)} broken links")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
