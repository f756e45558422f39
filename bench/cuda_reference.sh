#!/usr/bin/env bash
# Builds and runs the CUDA reference (reference/cuda/, docs/cuda-reference.md) where nvcc exists:
#   1. nvcc -O3 -arch=sm_90 -std=c++17 into the build folder, keeping the sm_90 cubin it embeds;
#   2. a SASS check: cuobjdump --dump-sass of that cubin, counting the intended instructions in each
#      probe's kernel (FFMA, IMAD, IDP.4A, HFMA2, HMMA, IMMA, LDG.E.128, STG.E.128) and spills;
#   3. the reference's host-only self-test (fragment layouts, emulations);
#   4. the GPU run, with the SASS check embedded in the JSON.
#
# Usage: bench/cuda_reference.sh [--sass-only] [OUT.json] [-- REFERENCE-ARGS...]
#   OUT.json       write the JSON there (a table goes to stdout); without it the JSON goes to stdout
#   --sass-only    stop after steps 1-3 (for machines without a GPU)
#   REFERENCE-ARGS passed to the reference, e.g. -- --only read-linear,f32-fma-vec4 --samples 20
# Environment: NVCC (compiler), CUOBJDUMP (disassembler), WGB_CUDA_BUILD_DIR (default build/cuda-reference),
#   WGB_CUDA_ARCH (default sm_90).
# Exit: 0 when nvcc is absent (skipped, with a message) or all is well; otherwise the reference's
# code (1 invalid, 3 no device, 4 CUDA error, ...), 1 for a failed self-test or SASS check, 2 usage,
# 6 a build failure.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sass_only=0
out=""
ref_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sass-only) sass_only=1 ;;
    --) shift; ref_args=("$@"); break ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "cuda_reference: unknown option $1" >&2; exit 2 ;;
    *) if [ -n "$out" ]; then echo "cuda_reference: only one output path" >&2; exit 2; fi; out=$1 ;;
  esac
  shift
done

say() { echo "cuda_reference: $*" >&2; }

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
  nvcc=$(command -v nvcc || true)
  [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ]; then
  say "nvcc not found: the CUDA reference is not built here (skipped)"
  exit 0
fi

build=${WGB_CUDA_BUILD_DIR:-$root/build/cuda-reference}
arch=${WGB_CUDA_ARCH:-sm_90}
mkdir -p "$build/keep"
cubin="$build/keep/reference.${arch}.cubin"
stamp="$build/build-stamp"
flags="-O3 -arch=$arch -std=c++17"
# Rebuild unless the binary, its cubin and the flags are newer than every source (a carried build
# folder then saves the compile on the GPU machine).
if [ -x "$build/reference" ] && [ -f "$cubin" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$nvcc $flags" ] &&
   [ -z "$(find "$root/reference/cuda" -newer "$build/reference" -type f)" ]; then
  say "up to date: $build/reference"
else
  say "building with $nvcc ($("$nvcc" --version | tail -1)) for $arch into $build"
  start=$(date +%s)
  # shellcheck disable=SC2086
  if ! "$nvcc" $flags -keep -keep-dir "$build/keep" -o "$build/reference" "$root/reference/cuda/reference.cu" -ldl; then
    say "build failed"
    exit 6
  fi
  echo "$nvcc $flags" > "$stamp"
  say "built in $(( $(date +%s) - start )) s"
fi
[ -f "$cubin" ] || cubin=""

# ---- SASS check --------------------------------------------------------------------------------
sass_file="$build/sass.txt"
check_file="$build/sass-check.txt"
: > "$check_file"
sass_ok=1
cuobjdump=${CUOBJDUMP:-}
if [ -z "$cuobjdump" ]; then
  cuobjdump=$(command -v cuobjdump || true)
  [ -z "$cuobjdump" ] && [ -x "$(dirname "$nvcc")/cuobjdump" ] && cuobjdump="$(dirname "$nvcc")/cuobjdump"
fi

dump_sass() {
  "$cuobjdump" --dump-sass "$1" > "$sass_file" 2> "$build/sass.err" && grep -q "Function :" "$sass_file"
}

if [ -z "$cubin" ]; then
  echo "SASS check not run: nvcc kept no $arch cubin" | tee -a "$check_file" >&2
elif [ -z "$cuobjdump" ]; then
  echo "SASS check not run: no cuobjdump (set CUOBJDUMP)" | tee -a "$check_file" >&2
else
  tool_version=$("$cuobjdump" --version 2>/dev/null | tail -1 || true)
  if dump_sass "$cubin"; then
    echo "SASS of $(basename "$cubin") dumped with cuobjdump ($tool_version)" >> "$check_file"
  else
    # CUDA 13 writes cubins with ELF ABI version 8, which older disassemblers reject. Their SASS is
    # the same encoding: rewrite a copy's header into the ABI 7 form (OS/ABI 0x33, ABI version 7,
    # e_flags 0x5a055a = 64-bit sm_90) and disassemble that.
    cp "$cubin" "$build/reference.abi7.cubin"
    printf '\x33\x07' | dd of="$build/reference.abi7.cubin" bs=1 seek=7 conv=notrunc status=none
    printf '\x5a\x05\x5a\x00' | dd of="$build/reference.abi7.cubin" bs=1 seek=48 conv=notrunc status=none
    if [ "$arch" = sm_90 ] && dump_sass "$build/reference.abi7.cubin"; then
      echo "SASS of $(basename "$cubin") dumped with cuobjdump ($tool_version) after rewriting its ELF header to ABI 7" >> "$check_file"
    else
      echo "SASS check not run: $cuobjdump could not read the cubin ($(head -1 "$build/sass.err"))" | tee -a "$check_file" >&2
      cuobjdump=""
    fi
  fi
  if [ -n "$cuobjdump" ]; then
    # sass-opcodes.tsv: function<TAB>opcode<TAB>count over the whole kernel; sass-loops.tsv:
    # function<TAB>loop<TAB>opcode<TAB>count over each loop body (from a backward branch's target to
    # the branch). The opcode is the first token of an instruction, predicate removed. Portable awk.
    : > "$build/sass-loops.tsv"
    awk -v loops="$build/sass-loops.tsv" '
      function hex(s,   i, c, v) {
        v = 0; s = tolower(s); sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++) {
          c = index("0123456789abcdef", substr(s, i, 1)); if (c == 0) break; v = v * 16 + c - 1
        }
        return v
      }
      function flush(   i, j, k) {
        for (i = 1; i <= n; i++) if (op[i] == "BRA" && tgt[i] >= 0 && tgt[i] < addr[i]) {
          for (k in cnt) delete cnt[k]
          for (j = 1; j <= i; j++) if (addr[j] >= tgt[i]) {
            cnt[op[j]]++
            if (op[j] == "HFMA2" || op[j] == "HFMA2.MMA") cnt["HFMA2+HFMA2.MMA"]++
          }
          for (k in cnt) print f "\t" tgt[i] "\t" k "\t" cnt[k] > loops
        }
        n = 0
      }
      /Function :/ { flush(); f = $3; next }
      /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// {
        line = $0; a = line; sub(/^[ \t]*\/\*/, "", a); sub(/\*\/.*/, "", a)
        sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); sub(/^@!?U?P[0-9T][ \t]+/, "", line)
        split(line, w, /[ \t]+/); n++; addr[n] = hex(a); op[n] = w[1]; tgt[n] = -1
        if (w[1] == "BRA") { t = w[2]; sub(/;.*/, "", t); if (t ~ /^0x/) tgt[n] = hex(t) }
        all[f "\t" w[1]]++
        if (w[1] == "HFMA2" || w[1] == "HFMA2.MMA") all[f "\tHFMA2+HFMA2.MMA"]++
      }
      END { flush(); for (k in all) print k "\t" all[k] }' "$sass_file" | sort > "$build/sass-opcodes.tsv"
    # probe id | kernel (substring of its mangled name) | opcode | exact or prefix | minimum count in
    # one loop body: the kernel's main loop, which is what the probe times.
    while IFS='|' read -r id kernel opcode match min; do
      body=$(awk -F'\t' -v k="$kernel" -v o="$opcode" -v m="$match" '
        index($1, k) && ((m == "exact" && $3 == o) || (m == "prefix" && index($3, o) == 1)) { c[$2] += $4 }
        END { best = 0; for (l in c) if (c[l] > best) best = c[l]; print best }' "$build/sass-loops.tsv")
      total=$(awk -F'\t' -v k="$kernel" -v o="$opcode" -v m="$match" '
        index($1, k) && ((m == "exact" && $2 == o) || (m == "prefix" && index($2, o) == 1)) { s += $3 }
        END { print s + 0 }' "$build/sass-opcodes.tsv")
      if [ "$body" -ge "$min" ]; then verdict=found; else verdict=MISSING; sass_ok=0; fi
      echo "$id: $opcode x$body in the main loop of $kernel (want >= $min; $total in the kernel): $verdict" >> "$check_file"
    done <<'EOF'
read-linear|read_kernelE|LDG.E.128|prefix|4
write-linear|write_kernelE|STG.E.128|prefix|4
memory-copy|copy_kernelE|LDG.E.128|prefix|4
memory-copy|copy_kernelE|STG.E.128|prefix|4
f32-fma-scalar|fma_f32_kernelILi8ELi32E|FFMA|exact|256
f32-fma-vec4|fma_f32_kernelILi32ELi8E|FFMA|exact|256
i32-mad-scalar|mad_i32_kernelILi8ELi32E|IMAD|exact|256
i32-mad-vec4|mad_i32_kernelILi32ELi8E|IMAD|exact|256
i8-dp4a|dp4a_kernelI|IDP.4A|prefix|256
f16-fma-vec4|hfma2_kernelI|HFMA2+HFMA2.MMA|exact|256
f16-fma-vec4|hfma2_kernelI|HFMA2|exact|1
f16-fma-vec4|hfma2_kernelI|HFMA2.MMA|exact|1
subgroup-matrix-f16-f32-16x16x16|mma_f16_kernelI|HMMA.16816.F32|prefix|32
subgroup-matrix-i8-i32-16x16x32|mma_i8_kernelI|IMMA.16832.S8.S8|prefix|32
memory-latency|chase_kernelE|LDG.E|exact|1
write-linear-relaxed-gpu|write_relaxed_kernelE|STG.E|prefix|4
memory-latency-relaxed-gpu|chase_relaxed_kernelE|LDG.E|prefix|1
f32-select|select_f32_kernelILi8ELi32E|FSEL|exact|256
f32-clamp|clamp_f32_kernelILi8ELi32ELb0E|FFMA.SAT|exact|256
texture-interp-builtin|tex_interp_kernelE|TEX.LL|exact|256
EOF
    # (f16: ptxas splits the half2 FMAs of the loop between the FMA pipe, HFMA2, and the tensor
    # pipe, HFMA2.MMA; together they are the 256 of the source's loop body.)
    spills=$(awk -F'\t' '$2 ~ /^(LDL|STL)/ { print $1 }' "$build/sass-opcodes.tsv" | sort -u | tr '\n' ' ')
    if [ -z "$spills" ]; then
      echo "register spills (LDL/STL): none in any kernel" >> "$check_file"
    else
      echo "register spills (LDL/STL) in: $spills" >> "$check_file"
      sass_ok=0
    fi
  fi
fi
cat "$check_file" >&2

# ---- host self-test -------------------------------------------------------------------------------
if ! "$build/reference" --self-test >&2; then
  say "host self-test failed"
  exit 1
fi

if [ "$sass_only" = 1 ]; then
  [ "$sass_ok" = 1 ] || { say "SASS check failed"; exit 1; }
  exit 0
fi

# ---- GPU run --------------------------------------------------------------------------------------
args=(--sass-check "$check_file")
[ -n "$out" ] && args+=(--json "$out")
set +e
"$build/reference" "${args[@]}" "${ref_args[@]+"${ref_args[@]}"}"
rc=$?
set -e
if [ "$rc" = 0 ] && [ "$sass_ok" = 0 ]; then
  say "the run is valid but the SASS check failed (see $check_file)"
  rc=1
fi
exit "$rc"
