#!/usr/bin/env python3
"""JSON is indexed by key only where a format is read and written.

A document, a message or an answer is read into the types it is written from, in one place per
format: src/report/ (result documents, a run's options and parameters, comparisons, the page's
channel, the adapter records), src/browser/protocol_messages.cpp (the browsers' remote protocols)
and src/store/api_json.cpp (the results server's API). Everywhere else code works with those types.
This check fails, naming file and line, when code elsewhere indexes JSON by a key: j["key"],
.value("key", ...), .at("key"), .contains("key"), or .find("key") compared with end().
"""
import pathlib
import re
import sys

READERS = ("src/report/", "src/browser/protocol_messages.cpp", "src/store/api_json.cpp")
KEY = r'"[A-Za-z0-9_]+"'
PATTERNS = [
    re.compile(r'\[\s*' + KEY + r'\s*\]'),
    re.compile(r'(\.|->)(value|at|contains)\(\s*' + KEY),
]
FIND = re.compile(r'(\.|->)find\(\s*' + KEY + r'\s*\)')


def code_of(line):
    """The line without its // comment (string literals kept: the key is one)."""
    out, in_string, i = [], False, 0
    while i < len(line):
        c = line[i]
        if in_string:
            out.append(c)
            if c == '\\' and i + 1 < len(line):
                out.append(line[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif line.startswith('//', i):
            break
        else:
            out.append(c)
        i += 1
    return ''.join(out)


def offends(line):
    code = code_of(line)
    if any(p.search(code) for p in PATTERNS):
        return True
    # A string's find("...") is compared with npos; a JSON object's or a map's with end().
    return bool(FIND.search(code)) and 'npos' not in code


def self_check():
    must = ['x = j["rows"];', 'd.value("device", "")', 'p->at("id")', 'if (j.contains("error")) {',
            'auto it = j.find("options"); if (it != j.end())']
    must_not = ['s.find("swiftshader") != std::string::npos', '// j["rows"] in a comment', 'f("rows", r.rows);',
                'emit({{"type", "row"}});', 'v[i] = 0;']
    for line in must:
        assert offends(line), f'the check misses: {line}'
    for line in must_not:
        assert not offends(line), f'the check flags: {line}'


def main(root):
    self_check()
    root = pathlib.Path(root)
    found = []
    for folder in ("src", "cli"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp"):
                continue
            rel = path.relative_to(root).as_posix()
            if rel.startswith(READERS):
                continue
            for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if offends(line):
                    found.append(f"{rel}:{n}: {line.strip()}")
    if found:
        print("JSON indexed by key outside the readers and writers of its format "
              "(read it into a type there: src/report/, src/browser/protocol_messages.cpp, src/store/api_json.cpp):")
        print("\n".join(found))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
