// A quick smoke test of the /run page in headless Chromium (the full end-to-end tests drive it
// with the program's own DevTools client): `serve` with --open-submissions, the page opened with
// ?filter=...&autorun=1&submit=1, and then either the run completes, every row validated, and the
// document is stored and listed as a browser run; or, in a program built without the engine, the
// page says exactly that. Bounded: 120 s in all, processes killed at the end.
//
//   node [--experimental-websocket] page_smoke.mjs PROGRAM CHROMIUM FILTER   (the flag before node 22)
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

const [program, chromium, filter = 'read-linear'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'wgb-page-'));
const children = [];
const deadline = Date.now() + 120_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function finish(code, message) {
  console.log(message);
  const exited = children.filter((c) => c.exitCode === null && c.signalCode === null)
                         .map((c) => new Promise((r) => c.on('exit', r)));
  for (const c of children) {
    try {
      if (c.spawnargs.includes('--headless=new')) process.kill(-c.pid, 'SIGKILL');  // Chromium and its helpers
      else c.kill('SIGKILL');
    } catch (e) {
      // already gone
    }
  }
  await Promise.race([Promise.all(exited), sleep(3000)]);
  try {
    rmSync(dir, {recursive: true, force: true, maxRetries: 5, retryDelay: 100});
  } catch (e) {
    console.log(`could not remove ${dir}: ${e.message}`);
  }
  process.exit(code);
}
process.on('unhandledRejection', (e) => finish(1, `FAIL: ${e && e.stack ? e.stack : e}`));
// As the store's tests: what is missing is a skip, except under CI=true, where it is a failure.
const skip = (why) => finish(process.env.CI === 'true' ? 1 : 0, `${process.env.CI === 'true' ? 'FAIL' : 'skipped'}: ${why}`);
if (typeof WebSocket === 'undefined') await skip('this node has no WebSocket client (node 20.10+ with --experimental-websocket)');

// The first line a process writes to `stream` that matches `re`.
function firstMatch(child, stream, re) {
  return new Promise((resolve, reject) => {
    let text = '';
    child[stream].on('data', (d) => {
      text += d;
      const m = text.match(re);
      if (m) resolve(m);
    });
    child.on('exit', (code) => reject(new Error(`${stream} ended (exit ${code}) without ${re}: ${text.slice(0, 400)}`)));
  });
}

const serve = spawn(program, ['serve', '--store', join(dir, 'results.db'), '--listen', '127.0.0.1:0', '-q',
                              '--token', 'smoke-token', '--open-submissions'], {stdio: ['ignore', 'pipe', 'pipe']});
children.push(serve);
const base = (await firstMatch(serve, 'stdout', /^(http:\/\/\S+)\n/m))[1];

async function openPage(url) {
  const chrome = spawn(chromium, ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu', `--user-data-dir=${join(dir, `profile-${children.length}`)}`,
                                  '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', 'about:blank'],
                       {stdio: ['ignore', 'ignore', 'pipe'], detached: true});  // its own group: killed whole
  children.push(chrome);
  const ws = (await firstMatch(chrome, 'stderr', /DevTools listening on (ws:\/\/[^\s]+)/))[1];
  const port = new URL(ws).port;
  let page;
  for (let i = 0; i < 50 && !page; ++i) {
    page = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()).find((t) => t.type === 'page');
    if (!page) await sleep(100);
  }
  const socket = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((r, j) => { socket.onopen = r; socket.onerror = j; });
  let id = 0;
  const pending = new Map();
  socket.onmessage = (m) => {
    const d = JSON.parse(m.data);
    if (d.id && pending.has(d.id)) pending.get(d.id)(d);
  };
  const send = (method, params = {}) => new Promise((r) => {
    pending.set(++id, r);
    socket.send(JSON.stringify({id, method, params}));
  });
  await send('Page.navigate', {url});
  const state = async () => {
    const r = await send('Runtime.evaluate', {expression: 'window.wgbState ? JSON.stringify(window.wgbState) : null', returnByValue: true});
    return r.result && r.result.result && r.result.result.value ? JSON.parse(r.result.result.value) : null;
  };
  return {chrome, socket, state};
}

const url = `${base}/run?filter=${encodeURIComponent(filter)}&autorun=1&submit=1`;
let s = null;
for (let attempt = 0; attempt < 2; ++attempt) {
  const page = await openPage(url);
  while (Date.now() < deadline) {
    await sleep(500);
    s = await page.state();
    if (s && (s.phase === 'error' || s.phase === 'cancelled' || (s.phase === 'done' && (s.submitted_url || s.submit_error)))) break;
  }
  page.socket.close();
  // About one Chromium start in fifty finds no adapter: one more try.
  if (s && s.phase === 'error' && /No WebGPU adapter/.test(s.error || '') && attempt === 0) continue;
  break;
}
if (!s) await finish(1, 'FAIL: the page never exposed window.wgbState');
if (s.phase === 'error' && /built without the browser engine/.test(s.error || '')) {
  await skip('this program was built without the browser engine; the page says so: ' + s.error);
}
if (s.phase !== 'done') await finish(1, `FAIL: phase ${s.phase}, error ${s.error}, progress ${JSON.stringify(s.progress)}`);
if (!s.rows.length) await finish(1, 'FAIL: no row');
// Measured and validated: "ok", "throttled" (measured while the shared machine was busy), or
// "suspect" because launch-bound (docs/method.md#streaming: on SwiftShader an empty dispatch of
// read-linear's grid, whose workgroups synchronise on a barrier, costs about half a pass).
const launchBound = (r) => r.status === 'suspect' && (r.message || '').startsWith('launch-bound');
for (const r of s.rows) {
  if (r.status !== 'ok' && r.status !== 'throttled' && !launchBound(r)) {
    await finish(1, `FAIL: row ${r.id} is ${r.status}: ${r.message || JSON.stringify(r).slice(0, 300)}`);
  }
  if (!r.validation) await finish(1, `FAIL: row ${r.id} carries no validation`);
}
if (!s.progress || !s.progress.done) await finish(1, 'FAIL: the last progress event is not "done"');
if (!s.submitted_url) await finish(1, `FAIL: not submitted: ${s.submit_error}`);
const listed = await (await fetch(`${base}/api/v1/results?runtime=browser`)).json();
if (listed.total !== 1 || `/runs/${listed.runs[0].id}` !== s.submitted_url) await finish(1, `FAIL: listed ${JSON.stringify(listed).slice(0, 400)}`);
const run = await (await fetch(`${base}/api/v1/results/${listed.runs[0].id}`)).json();
const b = run.document.machine && run.document.machine.browser;
if (!b || !b.user_agent || !['worker', 'main'].includes(b.webgpu_thread)) await finish(1, `FAIL: machine.browser ${JSON.stringify(b)}`);
await finish(0, `ok: ${s.rows.length} row(s) (${s.rows.map((r) => `${r.id} ${r.status} ${r.value} ${r.value_unit}`).join(', ')}), WebGPU in the ${b.webgpu_thread}, stored as ${s.submitted_url}`);
