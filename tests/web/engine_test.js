// Tests of the browser engine (webgpu-bench-engine.wasm) against a fake device host (harness.js):
// the same sampling decisions as the native sampler on the same scripted durations (its twin,
// tests/unit/web_sampling_twin_test.cpp, writes what it decided), a validation failure as an
// `error` row, an unsupported op as a `skipped` row naming why, Cancel (exit 130, completed rows
// kept), a hidden tab (progress paused), a round-trip floor (timestamps kept, batches sized to it),
// no adapter (exit 3), and the catalog export.
// Usage: node engine_test.js ENGINE.wasm SCRIPT.json NATIVE_TWIN.json
'use strict';
const assert = require('assert');
const fs = require('fs');
const {runEngine, catalog} = require('./harness.js');

const [wasm, scriptPath, twinPath] = process.argv.slice(2);
const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
const tests = [];
const test = (name, fn) => tests.push({name, fn});
const rows = (r) => r.events.filter((e) => e.type === 'row').map((e) => e.row);
const last = (r, type) => r.events.filter((e) => e.type === type).pop();

test('catalog lists every benchmark with its fields', () => {
  const c = catalog(wasm);
  assert.ok(c.length > 20, `only ${c.length} benchmarks`);
  const ids = c.map((d) => d.id);
  for (const id of ['read-linear', 'f32-fma-vec4', script.benchmark]) assert.ok(ids.includes(id), id);
  for (const d of c) {
    for (const k of ['id', 'label', 'category', 'family', 'default', 'unit', 'description']) assert.ok(k in d, `${d.id}.${k}`);
  }
});

test('the same sampling decisions as the native sampler on the same durations', () => {
  const native = JSON.parse(fs.readFileSync(twinPath, 'utf8'));
  const r = runEngine(wasm, {suite: 'default', filter: script.benchmark}, {script});
  const [row] = rows(r);
  assert.strictEqual(row.id, script.benchmark);
  assert.deepStrictEqual(row.samples_ms, native.samples_ms, 'kept samples');
  assert.deepStrictEqual(row.throttled_ms, native.throttled_ms, 'throttled samples');
  assert.strictEqual(row.procedure.repetitions_per_batch, native.repetitions, 'batch size');
  assert.strictEqual(row.procedure.stop_reason, native.stop_reason, 'stop reason');
  assert.strictEqual(row.time_ms, native.time_ms, 'headline time');
  assert.strictEqual(row.procedure.timing_method, 'gpu-timestamp');
});

test('a validation failure is an error row, and the document says so', () => {
  // The fake host runs no kernel: every output reads back as the engine left it, which the CPU
  // reference rejects.
  const r = runEngine(wasm, {suite: 'default', filter: script.benchmark, browser: {user_agent: 'UA/1'}}, {script});
  const [row] = rows(r);
  assert.strictEqual(row.status, 'error');
  assert.match(row.message, /^validation failed: /);
  assert.strictEqual(r.exit, 1);
  const doc = last(r, 'document').document;
  assert.strictEqual(doc.runtime, 'browser');
  assert.strictEqual(doc.schema, 'webgpu-bench/result');
  assert.strictEqual(doc.machine.browser.user_agent, 'UA/1');
  assert.strictEqual(doc.machine.browser.webgpu_thread, 'worker');
  assert.ok(Number.isInteger(doc.machine.browser.timestamp_quantization_ns), 'quantization observed');
  assert.strictEqual(doc.rows[0].status, 'error');
  assert.strictEqual(doc.state, 'complete');
  const line = r.events.find((e) => e.type === 'row').line;
  assert.ok(line.startsWith(script.benchmark), line);
});

test('an op the host cannot do makes a skipped row naming why', () => {
  const r = runEngine(wasm, {suite: 'default', filter: script.benchmark}, {script, refuse: (q) => q.op === 'buffer'});
  const [row] = rows(r);
  assert.strictEqual(row.status, 'skipped');
  assert.match(row.message, /the fake host does not do 'buffer' here/);
  assert.strictEqual(r.exit, 0);
});

test('a compile error keeps the native message shape', () => {
  const r = runEngine(wasm, {suite: 'default', filter: script.benchmark}, {script, compileError: () => true});
  const [row] = rows(r);
  assert.strictEqual(row.status, 'error');
  assert.match(row.message, /WGSL of '.*' failed to compile: 3:7: unresolved identifier/);
});

test('Cancel exits 130 and keeps the completed rows', () => {
  const second = 'layout-soa';
  const r = runEngine(wasm, {suite: 'default', filter: `${script.benchmark},${second}`}, {
    script,
    onEvent: (e, flags) => (e.type === 'row' ? flags | 1 : flags),
  });
  assert.strictEqual(r.exit, 130);
  const doc = last(r, 'document').document;
  assert.strictEqual(doc.state, 'cancelled');
  assert.strictEqual(doc.rows.length, 2);
  assert.strictEqual(doc.rows[0].id, script.benchmark);
  assert.notStrictEqual(doc.rows[0].status, 'cancelled');
  assert.ok(doc.rows[0].samples_ms.length > 0);
  assert.strictEqual(doc.rows[1].status, 'cancelled');
  assert.strictEqual(last(r, 'error').exit, 130);
  assert.ok(!r.events.some((e) => e.type === 'progress' && e.done), 'never 100 % when cancelled');
});

test('a hidden tab pauses between rows and progress says so; 100 % only at the end', () => {
  let reads = 0;
  const r = runEngine(wasm, {suite: 'default', filter: `${script.benchmark},layout-soa`}, {
    script,
    onEvent: (e, flags) => (e.type === 'row' && e.row.id === script.benchmark ? flags | 2 : flags),
    // The tab becomes visible again after a few looks.
    flags: (flags) => ((flags & 2) && ++reads > 5 ? flags & ~2 : flags),
  });
  const progress = r.events.filter((e) => e.type === 'progress');
  const paused = progress.filter((e) => e.paused);
  assert.ok(paused.length > 0, 'a paused progress event');
  assert.match(paused[0].line, /paused/);
  assert.strictEqual(paused[0].eta_s, null);
  assert.ok(progress.some((e) => e.approximate && /~/.test(e.line)), 'approximate at first');
  const end = progress[progress.length - 1];
  assert.ok(end.done && end.fraction === 1 && / 100% /.test(end.line), end.line);
  assert.ok(progress.slice(0, -1).every((e) => !e.done && e.fraction < 1));
  assert.strictEqual(rows(r).length, 2);
});

// A host with a 100 ms round-trip floor, as Firefox's completion polling has. The engine checked
// GPU timestamps against the raw round trip, so every batch shorter than the floor read as "under
// half of the wall-clock round trip" and the row was demoted to the wall clock (the bug); and its
// 100 ms batches left the floor's jitter a fifth of every wall-clock reading.
const floorScript = {...script, factors: [1.0], wall_extra_ms: 0};
const floorRow = (hostOpts) => rows(runEngine(wasm, {suite: 'default', filter: script.benchmark}, {
  script: floorScript, ...hostOpts}))[0];

test('a 100 ms round-trip floor keeps GPU timestamps and sizes batches to ten times it', () => {
  const row = floorRow({floor: {ms: 100, jitter_ms: [0]}});
  assert.strictEqual(row.procedure.timing_method, 'gpu-timestamp', JSON.stringify(row.procedure.timing_notes));
  assert.strictEqual(row.procedure.timestamp_strikes, 0);
  assert.ok(!row.discarded.some((d) => /clock-demoted|timestamp-rejected/.test(d.reason)), 'nothing demoted');
  const batch_ms = row.procedure.repetitions_per_batch * row.time_ms;
  assert.ok(batch_ms >= 0.9 * 10 * 100, `a batch of ${batch_ms} ms against a 100 ms floor`);
  assert.ok(row.procedure.timing_notes.some((n) => /ten times the 100\.0 ms round trip/.test(n)),
            JSON.stringify(row.procedure.timing_notes));
});

test('on the wall clock a floor that varies by a fifth costs a batch under 5 %', () => {
  // The same durations without timestamps: each reading is the round trip less the floor measured
  // at start-up. Here that floor read 120 ms while the timed passes see 100 ms: a 100 ms batch
  // read 20 % fast, a batch of ten floors reads under 2 % fast.
  const truth = floorRow({floor: {ms: 100, jitter_ms: [0]}}).time_ms;
  const jitter_ms = Array.from({length: 1000}, (_, i) => (i >= 1 && i <= 8 ? 20 : 0));
  const row = floorRow({floor: {ms: 100, jitter_ms}, features: []});
  assert.strictEqual(row.procedure.timing_method, 'wall-clock');
  assert.ok(Math.abs(row.time_ms / truth - 1) < 0.05, `wall clock ${row.time_ms} ms against ${truth} ms`);
});

test('no adapter exits 3 with the host\'s message', () => {
  const r = runEngine(wasm, {suite: 'default', filter: script.benchmark}, {noAdapter: true});
  assert.strictEqual(r.exit, 3);
  assert.match(last(r, 'error').message, /no WebGPU adapter/);
});

test('bad options are usage errors (exit 2)', () => {
  assert.strictEqual(runEngine(wasm, {suite: 'nope'}, {script}).exit, 2);
  assert.strictEqual(runEngine(wasm, {filter: 'no-such-benchmark'}, {script}).exit, 2);
});

let failed = 0;
for (const t of tests) {
  try {
    t.fn();
    console.log(`ok   ${t.name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}\n     ${(e.stack || e).toString().split('\n').slice(0, 6).join('\n     ')}`);
  }
}
console.log(`${tests.length - failed}/${tests.length} passed`);
process.exit(failed ? 1 : 0);
