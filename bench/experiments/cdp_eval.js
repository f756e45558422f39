// Experiment tool for docs/implementations.md: starts a headless Chromium, opens URL, evaluates one
// script in the page (awaiting its promise) and prints the result; the page's console (where
// Chromium's Dawn logs what `--enable-dawn-features=dump_shaders` dumps) goes to $CONSOLE when set.
// Extra arguments are Chromium flags. URL must be a secure origin (http://127.0.0.1:PORT/ of any
// local server) for navigator.gpu to exist.
//   node --experimental-websocket cdp_eval.js URL 'SCRIPT' [--enable-dawn-features=dump_shaders ...]
// $CHROMIUM names the browser (default: chromium); $WAIT_MS the wait after loading (default 2000).
// Not part of the product: an instrument for one question.
'use strict';
const {spawn} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [url, script, ...flags] = process.argv.slice(2);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wgb-cdp-'));
const chromium = spawn(process.env.CHROMIUM || 'chromium',
                       ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu', `--user-data-dir=${profile}`,
                        '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', ...flags, 'about:blank'],
                       {stdio: ['ignore', 'ignore', 'ignore']});
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
// The profile is removed once the browser has exited (it writes to it until then).
const finish = (code) => {
  const done = () => {
    try { fs.rmSync(profile, {recursive: true, force: true}); } catch (e) { /* left in the temp folder */ }
    process.exit(code);
  };
  chromium.once('exit', done);
  chromium.kill('SIGTERM');
  setTimeout(done, 5000);
};

(async () => {
  let port;
  for (let i = 0; i < 200 && !port; i++) {
    await wait(100);
    try { port = fs.readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]; } catch (e) { /* not yet */ }
  }
  if (!port) throw new Error('Chromium did not open its DevTools port');
  const page = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()).find((t) => t.type === 'page');
  const ws = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener('open', r));
  let id = 0;
  const pending = new Map();
  const console = [];
  ws.addEventListener('message', (m) => {
    const j = JSON.parse(m.data);
    if (j.id && pending.has(j.id)) { pending.get(j.id)(j); pending.delete(j.id); }
    if (j.method === 'Runtime.consoleAPICalled') console.push(j.params.args.map((a) => a.value ?? a.description).join(' '));
    if (j.method === 'Log.entryAdded') console.push(`[log ${j.params.entry.level}] ${j.params.entry.text}`);
  });
  const send = (method, params = {}) => new Promise((r) => {
    pending.set(++id, r);
    ws.send(JSON.stringify({id, method, params}));
  });
  await send('Runtime.enable');
  await send('Log.enable');
  await send('Page.navigate', {url});
  await wait(Number(process.env.WAIT_MS || 2000));
  const r = await send('Runtime.evaluate', {expression: script, awaitPromise: true, returnByValue: true, timeout: 600000});
  const res = r.result || {};
  process.stdout.write(`${JSON.stringify(res.exceptionDetails ? {exception: res.exceptionDetails.text} : res.result.value)}\n`);
  if (process.env.CONSOLE) fs.writeFileSync(process.env.CONSOLE, console.join('\n'));
  finish(res.exceptionDetails ? 1 : 0);
})().catch((e) => {
  process.stderr.write(`cdp_eval: ${e.message}\n`);
  finish(1);
});
