// The benchmark engine in Deno (docs/browser.md#deno): what run.js is to a browser, for a JavaScript
// runtime with WebGPU and no page. It loads the same engine worker (engine-worker.js), device host
// (device-host.js) and webgpu-bench-engine.wasm, runs a selection given on its command line, prints
// the table as `run` does, writes the result document and can submit it to a results server.
//
//   deno run --unstable-webgpu -A web/deno.js --filter read-linear --out result.json
//   deno run --unstable-webgpu -A http://HOST:8080/run/deno.js --submit http://HOST:8080
//
// Options: --filter GLOBS, --suite default|memory, --memory-bytes N, --engine PATH|URL (default:
// beside this script, else the build's build/release/web/), --out FILE, --submit URL, --token T,
// --accuracy (the builtins' accuracy too, as run --accuracy), --adapter (print the adapter as JSON
// and exit), --quiet. Exit codes as the command line's: 0 ok,
// 1 a benchmark failed, 2 usage, 3 no adapter, 4 device lost, 5 I/O, 6 the submission failed,
// 130 interrupted.
import './submit.js';

const CHANNEL_BYTES = 16 + 64 * 1024 * 1024;
const USAGE = 'usage: deno run --unstable-webgpu -A deno.js [--filter GLOBS] [--suite default|memory]\n' +
              '         [--memory-bytes N] [--engine PATH|URL] [--out FILE] [--submit URL] [--token T]\n' +
              '         [--accuracy] [--adapter] [--quiet]';

function parseArgs(argv) {
  const o = {suite: 'default', quiet: false, adapterOnly: false};
  const valued = {'--filter': 'filter', '--suite': 'suite', '--memory-bytes': 'memoryBytes', '--engine': 'engine',
                  '--out': 'out', '--submit': 'submit', '--token': 'token'};
  for (let i = 0; i < argv.length; ++i) {
    let a = argv[i], v = null;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) [a, v] = [a.slice(0, eq), a.slice(eq + 1)];
    if (a === '--quiet' || a === '-q') o.quiet = true;
    else if (a === '--adapter') o.adapterOnly = true;
    else if (a === '--accuracy') o.accuracy = true;
    else if (a === '--help' || a === '-h') o.help = true;
    else if (valued[a]) {
      if (v === null) {
        if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
        v = argv[++i];
      }
      o[valued[a]] = v;
    } else {
      throw new Error(`unknown option ${a}`);
    }
  }
  if (o.suite !== 'default' && o.suite !== 'memory') throw new Error(`--suite ${o.suite}: default or memory`);
  if (o.memoryBytes !== undefined && !/^\d+$/.test(o.memoryBytes)) throw new Error('--memory-bytes takes a whole number');
  if (o.submit !== undefined && !/^https?:\/\/[^/?#@ ]+/.test(o.submit)) {
    throw new Error(`--submit ${o.submit}: the server URL must start with http:// or https://`);
  }
  return o;
}

const say = (line) => console.error(line);

// The engine's bytes: a URL (the results server's /run/webgpu-bench-engine.wasm) or a file.
async function engineBytes(where) {
  const candidates = where ? [where] : [new URL('./webgpu-bench-engine.wasm', import.meta.url).href,
                                        new URL('../build/release/web/webgpu-bench-engine.wasm', import.meta.url).href];
  const tried = [];
  for (const c of candidates) {
    const url = /^[a-z]+:/.test(c) ? c : new URL(c, `file://${Deno.cwd()}/`).href;
    try {
      if (url.startsWith('file:')) return await Deno.readFile(new URL(url));
      const r = await fetch(url);
      if (r.ok) return new Uint8Array(await r.arrayBuffer());
      tried.push(`${url}: HTTP ${r.status}`);
    } catch (e) {
      tried.push(`${url}: ${e.message}`);
    }
  }
  throw new Error(`cannot load the engine (webgpu-bench-engine.wasm): ${tried.join('; ')}`);
}

// Ends the device host: its device destroyed in order (at most 10 s), then the worker. A worker
// ended with its device alive crashed Deno at exit on NVIDIA's driver (after the output was whole).
async function stopHost(host) {
  const closed = new Promise((resolve) => {
    const timer = setTimeout(() => resolve('the device host did not answer within 10 s'), 10000);
    host.onmessage = (ev) => {
      if (ev.data && ev.data.type === 'closed') {
        clearTimeout(timer);
        resolve(ev.data.error);
      }
    };
  });
  host.postMessage({type: 'close'});
  const error = await closed;
  if (error) say(`closing the device: ${error}`);
  host.terminate();
}

// The device host in a module worker (Deno has WebGPU in workers); resolves to its init reply.
function startHost(sab) {
  const host = new Worker(new URL('./device-host.js', import.meta.url).href, {type: 'module'});
  const reply = new Promise((resolve) => {
    host.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'probe') {
        if (!m.gpu) resolve({error: 'unsupported', message: 'navigator.gpu is missing (run Deno with --unstable-webgpu)'});
        else host.postMessage({type: 'init'});
      } else if (m.type === 'init') {
        resolve(m.reply);
      } else if (m.type === 'lost') {
        say(`the GPU device was lost: ${m.message}`);
      }
    };
    host.onerror = (ev) => {
      ev.preventDefault();
      resolve({error: 'internal', message: `the device host failed: ${ev.message}`});
    };
  });
  host.postMessage({type: 'probe', sab});
  return {host, reply};
}

async function main() {
  let o;
  try {
    o = parseArgs(Deno.args);
  } catch (e) {
    say(`deno.js: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  const sab = new SharedArrayBuffer(CHANNEL_BYTES);
  const header = new Int32Array(sab, 0, 4);
  const {host, reply} = startHost(sab);
  const init = await reply;
  if (init.error) {
    say(`no WebGPU adapter: ${init.message}`);
    host.terminate();
    return 3;
  }
  if (o.adapterOnly) {
    console.log(JSON.stringify(init));
    await stopHost(host);
    return 0;
  }
  let module;
  try {
    module = await WebAssembly.compile(await engineBytes(o.engine));
  } catch (e) {
    say(e.message);
    await stopHost(host);
    return 5;
  }

  // Ctrl-C: the engine stops at its next check and keeps what completed; a second one leaves.
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) Deno.exit(130);
    interrupted = true;
    Atomics.store(header, 2, 1);
    say('interrupted: stopping at the next measurement (Ctrl-C again to leave at once)');
  };
  Deno.addSignalListener('SIGINT', onInterrupt);

  const channel = new MessageChannel();
  host.postMessage({type: 'port', port: channel.port2}, [channel.port2]);
  const options = {suite: o.suite, browser: {user_agent: navigator.userAgent, webgpu_thread: 'worker'}};
  if (navigator.hardwareConcurrency > 0) options.browser.logical_cpus = navigator.hardwareConcurrency;
  if (o.filter) options.filter = o.filter;
  if (o.memoryBytes !== undefined) options.memory_bytes = Number(o.memoryBytes);
  if (o.accuracy) options.accuracy = true;

  const tty = Deno.stderr.isTerminal();
  let documentOut = null, status = '';
  const engine = new Worker(new URL('./engine-worker.js', import.meta.url).href, {type: 'module'});
  const code = await new Promise((resolve) => {
    engine.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'exit') return resolve(m.code);
      if (m.type === 'fatal') {
        say(`the engine stopped: ${m.message}`);
        return resolve(4);
      }
      if (m.type !== 'event') return;
      const e = m.event;
      if (e.type === 'table_header') {
        for (const l of e.lines || []) console.log(l);
      } else if (e.type === 'row' && typeof e.line === 'string') {
        if (tty && status) Deno.stderr.writeSync(new TextEncoder().encode('\r\x1b[K'));
        console.log(e.line.endsWith('\n') ? e.line.slice(0, -1) : e.line);
      } else if (e.type === 'verdicts' && e.text && e.text.trim()) {
        console.log(e.text.replace(/^\n+/, '').replace(/\n+$/, ''));
      } else if (e.type === 'progress' && !o.quiet && tty && typeof e.line === 'string') {
        status = e.line.slice(0, Math.max(10, (Deno.consoleSize?.().columns || 100) - 1));
        Deno.stderr.writeSync(new TextEncoder().encode(`\r\x1b[K${status}`));
      } else if (e.type === 'document') {
        documentOut = e.document;
      } else if (e.type === 'error') {
        say(String(e.message));
      }
    };
    engine.onerror = (ev) => {
      ev.preventDefault();
      say(`the engine worker failed: ${ev.message}`);
      resolve(4);
    };
    engine.postMessage({type: 'run', module, sab, port: channel.port1, options}, [channel.port1]);
  });
  if (tty && status) Deno.stderr.writeSync(new TextEncoder().encode('\r\x1b[K'));
  engine.terminate();
  await stopHost(host);
  Deno.removeSignalListener('SIGINT', onInterrupt);

  let exit = code;
  if (documentOut && o.out) {
    try {
      // Atomically, as the command line writes its documents: a reader never sees half a file.
      const tmp = `${o.out}.tmp-${Deno.pid}`;
      await Deno.writeTextFile(tmp, JSON.stringify(documentOut, null, 2) + '\n');
      await Deno.rename(tmp, o.out);
    } catch (e) {
      say(`cannot write ${o.out}: ${e.message}`);
      exit = 5;
    }
  }
  if (documentOut && o.submit && (code === 0 || code === 1)) {
    const r = await globalThis.wgbSubmitDocument(o.submit.replace(/\/+$/, '') + '/api/v1/results', documentOut,
                                                  {token: o.token, say});
    if (r.ok) say(`submitted to ${o.submit}: ${o.submit.replace(/\/+$/, "")}${r.url}`);
    else {
      say(`not submitted: ${r.error}`);
      if (exit === 0 || exit === 1) exit = 6;
    }
  }
  return exit;
}

Deno.exit(await main());
