#!/usr/bin/env python3
"""The program's build never waits for the browser engine: `scripts/run.sh` builds only the target
webgpu-bench, and its first table must not wait for the second (WebAssembly) compile of the whole
engine. Reads the build graph (ninja -t inputs) and fails when the program's inputs name the engine
target or its module; also fails when the graph is empty or names none of the program's own
sources, so it cannot pass by reading nothing."""
import subprocess
import sys

ninja, build = sys.argv[1], sys.argv[2]
out = subprocess.run([ninja, "-C", build, "-t", "inputs", "webgpu-bench"], capture_output=True, text=True)
if out.returncode != 0:
    sys.exit(f"ninja -t inputs failed: {out.stderr.strip()}")
inputs = out.stdout.splitlines()
# Its own sources: cli/main.cpp, or the unity files that include it (cmake/FrontEnd.cmake).
if not any(line.endswith("cli/main.cpp") or ("webgpu-bench.dir/Unity/unity_" in line and line.endswith(".cxx"))
           for line in inputs):
    sys.exit(f"the build graph of webgpu-bench lists neither cli/main.cpp nor a unity file of it ({len(inputs)} "
             "inputs): cannot check")
engine = [line for line in inputs if "wgb_engine_wasm" in line or line.endswith(".wasm")]
if engine:
    sys.exit("webgpu-bench's build waits for the browser engine: " + ", ".join(engine[:5]))
print(f"webgpu-bench: {len(inputs)} inputs, none of them the browser engine")
