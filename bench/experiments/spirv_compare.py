#!/usr/bin/env python3
"""Experiment tool for docs/implementations.md. Pairs each dumped WGSL with the SPIR-V Dawn made of
it, natively (stderr of `webgpu-bench run` with WGB_DAWN_TOGGLES=dump_shaders,disable_symbol_renaming)
and in Chromium (the page's console, saved by cdp_eval.js, with
--enable-dawn-features=dump_shaders,disable_symbol_renaming), and says per shader whether the SPIR-V
is the same (entry-point names aside).

  spirv_compare.py NATIVE_STDERR --emit-wgsl SHADERS.json   the distinct WGSL sources, as a JSON list
  spirv_compare.py NATIVE_STDERR CHROMIUM_CONSOLE           the comparison, one line per shader
Not part of the product: an instrument for one question."""
import json, re, sys

def pairs(text, prefix):
    # Blocks start at "// Dumped WGSL:" or "/* Dumped SPIRV disassembly */" (after an optional prefix).
    parts = re.split(r'^(?:%s)?(// Dumped WGSL:|/\* Dumped SPIRV disassembly \*/)\s*$' % prefix, text, flags=re.M)
    out, wgsl = [], None
    for i in range(1, len(parts) - 1, 2):
        kind, body = parts[i], parts[i + 1]
        body = re.split(r'^\[log |^dawn (info|warning|error): ', body, flags=re.M)[0]
        if kind.startswith('// Dumped WGSL'):
            wgsl = body.strip()
        elif wgsl is not None:
            spv = [l.strip() for l in body.strip().split('\n') if l.strip()]
            spv = [re.sub(r'"dawn_entry_point[^"]*"', '"dawn_entry_point"', l) for l in spv]
            out.append((wgsl, spv))
            wgsl = None
    return out

if __name__ == '__main__':
    native = pairs(open(sys.argv[1]).read(), 'dawn info: ')
    if sys.argv[2] == '--emit-wgsl':
        uniq = []
        for w, _ in native:
            if w not in uniq: uniq.append(w)
        json.dump(uniq, open(sys.argv[3], 'w'))
        print(len(uniq), 'distinct shaders')
        sys.exit(0)
    chromium = dict(pairs(open(sys.argv[2]).read(), r'\[log info\] '))
    seen = set()
    for w, spv in native:
        if w in seen: continue
        seen.add(w)
        name = next((l for l in w.split('\n') if l.startswith('//')), w.split('\n')[0])[:70]
        c = chromium.get(w)
        if c is None: print(f'missing in Chromium: {name}'); continue
        same = c == spv
        diff = [] if same else [l for l in set(spv) ^ set(c)]
        print(f'{"same" if same else "DIFFERENT"} ({len(spv)} lines): {name}' + ('' if same else f'; {len(diff)} lines differ'))
