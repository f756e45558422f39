// The /run page (docs/browser.md): the adapter, the choice of suite and filter, progress, the table
// and verdicts as `run` prints them, download and Submit. The measuring is done by the engine worker
// (engine-worker.js, C++ in WebAssembly); WebGPU calls by the device host (device-host.js), in its
// own worker when the browser has WebGPU in workers, else here on the main thread.
//
// URL parameters: filter=GLOBS, suite=default|memory, memory_bytes=N, autorun=1, submit=1.
// window.wgbState is the page's state for automation (read over the DevTools protocol).
'use strict';

(() => {
  const CHANNEL_BYTES = 16 + 64 * 1024 * 1024;
  const ENGINE_URL = '/run/webgpu-bench-engine.wasm';
  const $ = (id) => document.getElementById(id);

  const state = {
    phase: 'idle',          // idle | running | done | error | cancelled
    progress: null,         // the last progress event
    rows: [],               // row objects as in the document, as they complete
    document: null,
    submitted_url: null,
    error: null,
    adapter: null,          // the device host's init reply
    webgpu_thread: null,    // "worker" | "main"
    exit_code: null,
    table_lines: [],
    verdicts: null,
    submit_error: null,
    ready: false,           // the page can start a run
  };
  window.wgbState = state;

  const params = new URLSearchParams(location.search);
  let engineModule = null;
  let hostWorker = null;    // the device host's worker, when WebGPU exists in workers
  let mainHost = null;      // the device host on this thread, otherwise
  let sab = null, header = null;
  let engine = null;        // the engine worker of the current run

  function showMessage(text, info) {
    const box = $('message');
    box.textContent = text;  // never innerHTML: messages can quote the browser's own strings
    box.className = info ? 'message info' : 'message';
    box.hidden = false;
  }

  function fail(text) {
    state.phase = 'error';
    state.error = text;
    showMessage(text);
    $('cancel').disabled = true;
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // ---- the adapter ----------------------------------------------------------------------------
  function showAdapter(reply) {
    const box = $('adapter');
    box.replaceChildren();
    const a = reply.adapter || {};
    const table = el('table', undefined, 'kv');
    const row = (k, v) => {
      const tr = el('tr');
      tr.append(el('th', k), el('td', v));
      table.append(tr);
    };
    row('Vendor', a.vendor || '(not reported)');
    row('Architecture', a.architecture || '(not reported)');
    row('Description', a.description || a.device || '(not reported)');
    row('Fallback (software) adapter', a.is_fallback_adapter ? 'yes' : 'no');
    let stamps = 'not available: wall-clock timing only';
    if (reply.timestamps) {
      const q = reply.timestamp_quantization_ns;
      stamps = q === null || q === undefined ? 'available (resolution not observed yet)'
             : q <= 1 ? 'available, not quantized (1 ns steps)'
             : `available, quantized to ${q.toLocaleString('en')} ns steps`;
    }
    row('Timestamp queries', stamps);
    row('WebGPU runs in', reply.webgpu_thread === 'worker' ? 'a dedicated worker' : 'the main thread (this browser has no WebGPU in workers)');
    row('User agent', reply.user_agent || navigator.userAgent);
    box.append(table);
    const features = el('details');
    features.append(el('summary', `Features (${(reply.features || []).length})`));
    const list = el('div', undefined, 'features');
    for (const f of reply.features || []) list.append(el('span', f));
    features.append(list);
    box.append(features);
    const limits = el('details');
    const names = Object.keys(reply.limits || {}).sort();
    limits.append(el('summary', `Limits (${names.length})`));
    const lt = el('table', undefined, 'kv');
    for (const n of names) {
      const tr = el('tr');
      tr.append(el('th', n), el('td', Number(reply.limits[n]).toLocaleString('en'), 'n'));
      lt.append(tr);
    }
    limits.append(lt);
    box.append(limits);
  }

  // ---- the device host --------------------------------------------------------------------------
  // A worker when navigator.gpu exists there; the main thread otherwise. Resolves to the init reply.
  async function startHost() {
    sab = new SharedArrayBuffer(CHANNEL_BYTES);
    header = new Int32Array(sab, 0, 4);
    let inWorker = false;
    // webgpu_thread=main: the main-thread fallback on a browser that would not need it (for tests).
    if (params.get('webgpu_thread') === 'main') {
      state.webgpu_thread = 'main';
      return false;
    }
    try {
      hostWorker = new Worker('/run/device-host.js');
      inWorker = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), 5000);
        hostWorker.onmessage = (ev) => {
          if (ev.data.type === 'probe') {
            clearTimeout(timer);
            resolve(ev.data.gpu);
          }
        };
        hostWorker.onerror = () => {
          clearTimeout(timer);
          resolve(false);
        };
        hostWorker.postMessage({type: 'probe', sab});
      });
    } catch (e) {
      inWorker = false;
    }
    if (!inWorker && hostWorker) {
      hostWorker.terminate();
      hostWorker = null;
    }
    state.webgpu_thread = inWorker ? 'worker' : 'main';
    return inWorker;
  }

  // Connects a fresh MessagePort pair: one end to the engine, the other to the host.
  function connectHost() {
    const channel = new MessageChannel();
    if (hostWorker) {
      hostWorker.postMessage({type: 'port', port: channel.port2}, [channel.port2]);
    } else {
      channel.port2.onmessage = () => mainHost.wake();
    }
    return channel.port1;
  }

  function onLost(message) {
    log(`the GPU device was lost: ${message}`);
  }

  function initAdapter() {
    if (hostWorker) {
      return new Promise((resolve) => {
        hostWorker.onmessage = (ev) => {
          if (ev.data.type === 'init') resolve(ev.data.reply);
          else if (ev.data.type === 'lost') onLost(ev.data.message);
        };
        hostWorker.onerror = (ev) => resolve({error: 'internal', message: `the device host worker failed: ${ev.message || 'unknown error'}`});
        hostWorker.postMessage({type: 'init'});
      });
    }
    const reply = mainHost.busy.then(() => mainHost.init());
    mainHost.busy = reply.catch(() => {});
    return reply.catch((e) => ({error: e.kind || 'internal', message: String(e.message || e)}));
  }

  // ---- the engine ---------------------------------------------------------------------------------
  async function loadEngine() {
    let response;
    try {
      response = await fetch(ENGINE_URL);
    } catch (e) {
      throw new Error(`could not fetch the engine (${ENGINE_URL}): ${e.message}`);
    }
    if (response.status === 404) {
      throw new Error('This webgpu-bench program was built without the browser engine (webgpu-bench-engine.wasm): ' +
                      'build it where clang-16 and wasi-libc are installed (scripts/bootstrap.sh installs them), then restart serve.');
    }
    if (!response.ok) throw new Error(`could not fetch the engine (${ENGINE_URL}): HTTP ${response.status}`);
    return WebAssembly.compile(await response.arrayBuffer());
  }

  function loadCatalog() {
    const w = new Worker('/run/engine-worker.js');
    w.onmessage = (ev) => {
      if (ev.data.type === 'catalog' && Array.isArray(ev.data.catalog)) {
        const list = $('catalog-ids');
        for (const b of ev.data.catalog) {
          const o = document.createElement('option');
          o.value = String(b.id);
          o.label = String(b.label || '');
          list.append(o);
        }
      }
      w.terminate();
    };
    w.onerror = () => w.terminate();
    w.postMessage({type: 'catalog', module: engineModule});
  }

  // ---- a run ------------------------------------------------------------------------------------
  function log(text) {
    $('log-box').hidden = false;
    $('log').textContent += text + '\n';
  }

  function fmtEta(s) {
    if (s === null || s === undefined || !isFinite(s)) return '';
    s = Math.max(0, Math.round(s));
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  }

  // The same reading as the command line's: "~" while the estimate is approximate, "paused" while
  // the tab is hidden, 100 % only once the run completed.
  function showProgress(p) {
    state.progress = p;
    const done = !!p.done;
    let fraction = Math.max(0, Math.min(1, Number(p.fraction) || 0));
    if (!done) fraction = Math.min(fraction, 0.999);
    $('bar').value = fraction;
    let pct = done ? '100' : Math.min(99, Math.floor(fraction * 100)).toString();
    let text = `${pct} %`;
    if (p.paused) {
      text += ' · paused (tab hidden)';
    } else if (!done && p.eta_s !== null && p.eta_s !== undefined) {
      text += ` · ${p.approximate ? '~' : ''}${fmtEta(p.eta_s)} left`;
    }
    if (p.current && !done) text += ` · ${p.current}`;
    $('progress-text').textContent = text;
    $('progress-line').textContent = p.line || '';
  }

  function onEvent(e) {
    switch (e.type) {
      case 'adapter':
        break;  // already shown from the host's own init
      case 'progress':
        showProgress(e);
        break;
      case 'table_header':
        state.table_lines = (e.lines || []).slice();
        $('table').textContent = state.table_lines.join('\n') + '\n';
        $('results').hidden = false;
        break;
      case 'row':
        state.rows.push(e.row);
        if (typeof e.line === 'string') {
          // A row's line may end with a newline (and carry its note on a second line).
          const line = e.line.endsWith('\n') ? e.line.slice(0, -1) : e.line;
          state.table_lines.push(line);
          $('table').textContent += line + '\n';
        }
        $('results').hidden = false;
        break;
      case 'verdicts':
        state.verdicts = e.text;
        if (e.text && e.text.trim()) {
          $('verdicts').textContent = e.text.replace(/^\n+/, '');
          $('verdicts').hidden = false;
        }
        break;
      case 'document':
        state.document = completeDocument(e.document);
        $('download').disabled = false;
        $('submit').disabled = false;
        break;
      case 'log':
        log(String(e.text));
        break;
      case 'error':
        state.error = String(e.message);
        showMessage(String(e.message));
        break;
    }
  }

  // What only the page knows, when the engine left it out: the timer's observed step.
  function completeDocument(doc) {
    if (doc && typeof doc === 'object' && doc.machine && typeof doc.machine === 'object') {
      const b = doc.machine.browser || (doc.machine.browser = {});
      if (b.timestamp_quantization_ns === undefined && state.adapter) b.timestamp_quantization_ns = state.adapter.timestamp_quantization_ns ?? null;
      if (b.user_agent === undefined) b.user_agent = navigator.userAgent;
      if (b.webgpu_thread === undefined) b.webgpu_thread = state.webgpu_thread;
    }
    return doc;
  }

  function finish(code) {
    engine && engine.terminate();
    engine = null;
    state.exit_code = code;
    $('cancel').disabled = true;
    $('start').disabled = false;
    if (code === 130) {
      state.phase = 'cancelled';
      $('progress-text').textContent += ' · cancelled';
      showMessage('The run was cancelled. The rows that completed are kept above and in the document.', true);
    } else if (code === 0 || code === 1) {
      // 1: a benchmark failed (an error row); the run itself completed.
      state.phase = 'done';
      if (state.progress) showProgress(Object.assign({}, state.progress, {done: true, fraction: 1, paused: false}));
      else $('progress-text').textContent = '100 %';
      if (code === 1) showMessage('The run completed; at least one benchmark failed (see its row).', true);
      if (params.get('submit') === '1' && state.document) submit();
    } else {
      const reasons = {3: 'no usable WebGPU adapter', 4: 'the GPU device was lost or reported an error'};
      fail(state.error || `the run stopped with exit status ${code}${reasons[code] ? ': ' + reasons[code] : ''}`);
    }
  }

  function start() {
    if (state.phase === 'running' || !state.ready) return;
    const suite = document.querySelector('input[name=suite]:checked').value;
    const filter = $('filter').value.trim();
    Object.assign(state, {phase: 'running', progress: null, rows: [], document: null, submitted_url: null,
                          error: null, exit_code: null, table_lines: [], verdicts: null, submit_error: null});
    $('message').hidden = true;
    $('table').textContent = '';
    $('verdicts').hidden = true;
    $('results').hidden = true;
    $('download').disabled = true;
    $('submit').disabled = true;
    $('submit-status').replaceChildren();
    $('progress-box').hidden = false;
    $('bar').value = 0;
    $('progress-text').textContent = 'starting…';
    $('progress-line').textContent = '';
    $('start').disabled = true;
    $('cancel').disabled = false;
    Atomics.store(header, 0, 0);
    Atomics.store(header, 2, 0);
    Atomics.store(header, 3, document.hidden ? 1 : 0);
    const options = {suite, browser: {user_agent: navigator.userAgent, webgpu_thread: state.webgpu_thread}};
    if (navigator.hardwareConcurrency > 0) options.browser.logical_cpus = navigator.hardwareConcurrency;
    if (filter) options.filter = filter;
    if (params.get('accuracy') === '1') options.accuracy = true;
    const mb = params.get('memory_bytes');
    if (mb && /^\d+$/.test(mb)) options.memory_bytes = Number(mb);
    const port = connectHost();
    engine = new Worker('/run/engine-worker.js');
    engine.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'event') onEvent(m.event);
      else if (m.type === 'exit') finish(m.code);
      else if (m.type === 'fatal') {
        engine.terminate();
        engine = null;
        $('start').disabled = false;
        fail(`the engine stopped: ${m.message}`);
      }
    };
    engine.onerror = (ev) => {
      ev.preventDefault();
      if (engine) engine.terminate();
      engine = null;
      $('start').disabled = false;
      fail(`the engine worker failed: ${ev.message || 'unknown error'}`);
    };
    engine.postMessage({type: 'run', module: engineModule, sab, port, options}, [port]);
  }

  function cancel() {
    if (state.phase !== 'running') return;
    Atomics.store(header, 2, 1);
    $('cancel').disabled = true;
    $('progress-text').textContent += ' · cancelling…';
  }

  function download() {
    if (!state.document) return;
    const blob = new Blob([JSON.stringify(state.document, null, 2) + '\n'], {type: 'application/json'});
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    const stamp = (state.document.started_at || new Date().toISOString()).replace(/[^0-9A-Za-z]/g, '');
    a.download = `webgpu-bench-browser-${stamp}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  async function submit() {
    if (!state.document || state.submitted_url) return;
    const status = $('submit-status');
    $('submit').disabled = true;
    status.textContent = 'submitting…';
    let res, body = {};
    try {
      res = await fetch('/api/v1/results', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                            body: JSON.stringify(state.document)});
      body = await res.json().catch(() => ({}));
    } catch (e) {
      state.submit_error = `the server could not be reached: ${e.message}`;
      status.textContent = state.submit_error;
      $('submit').disabled = false;
      return;
    }
    if (res.ok && typeof body.url === 'string' && body.url.startsWith('/runs/')) {
      state.submitted_url = body.url;
      status.replaceChildren();
      const a = el('a', body.duplicate ? 'already stored: see the run' : 'submitted: see the run beside its class');
      a.href = body.url;
      status.append(a);
      return;
    }
    let why = body.error || `HTTP ${res.status}`;
    if (res.status === 401) why = 'this server accepts documents only with a token; its operator can allow visitors\' runs (serve --open-submissions)';
    if (res.status === 429) why = `too many submissions from this address: try again in ${res.headers.get('Retry-After') || 'a few'} s`;
    state.submit_error = why;
    status.textContent = `not submitted: ${why}`;
    $('submit').disabled = res.status === 401;
  }

  // ---- start-up -------------------------------------------------------------------------------------
  async function main() {
    $('choose').addEventListener('submit', (ev) => {
      ev.preventDefault();
      start();
    });
    $('cancel').addEventListener('click', cancel);
    $('download').addEventListener('click', download);
    $('submit').addEventListener('click', submit);
    document.addEventListener('visibilitychange', () => {
      if (header) Atomics.store(header, 3, document.hidden ? 1 : 0);
    });
    if (params.get('suite') === 'memory') document.querySelector('input[name=suite][value=memory]').checked = true;
    if (params.has('filter')) $('filter').value = params.get('filter').slice(0, 512);

    if (!('gpu' in navigator) || !navigator.gpu) {
      $('adapter-status').textContent = 'No WebGPU.';
      return fail('This browser does not expose WebGPU (navigator.gpu is missing). Use a browser with WebGPU ' +
                  '(Chrome or Edge 113+, Safari 26+, Firefox 141+), or enable it in the browser\'s settings.');
    }
    if (!self.crossOriginIsolated || typeof SharedArrayBuffer === 'undefined') {
      $('adapter-status').textContent = 'Not started.';
      return fail('This page is not cross-origin isolated, so SharedArrayBuffer is unavailable and the engine cannot run. ' +
                  'Open it from the webgpu-bench server directly (it sends Cross-Origin-Opener-Policy and ' +
                  'Cross-Origin-Embedder-Policy); a proxy in between may drop those headers.');
    }
    const enginePromise = loadEngine().then((m) => (engineModule = m), (e) => e);
    await startHost();
    if (!hostWorker) {
      mainHost = new WgbDeviceHost(sab, 'main');
      mainHost.onLost = onLost;
    }
    let reply = await initAdapter();
    if (reply.error && hostWorker) {
      // A browser may expose navigator.gpu in workers without an adapter there: the main thread.
      log(`WebGPU in a worker failed (${reply.message}); trying the main thread`);
      hostWorker.terminate();
      hostWorker = null;
      state.webgpu_thread = 'main';
      mainHost = new WgbDeviceHost(sab, 'main');
      mainHost.onLost = onLost;
      reply = await initAdapter();
    }
    if (reply.error) {
      $('adapter-status').textContent = 'No adapter.';
      state.adapter = null;
      return fail(reply.error === 'unsupported' ? `No WebGPU adapter: ${reply.message}. The browser may have WebGPU ` +
                  'disabled for this GPU or driver (see its GPU status page, e.g. chrome://gpu).' : `WebGPU failed to start: ${reply.message}`);
    }
    state.adapter = reply;
    showAdapter(reply);
    const loaded = await enginePromise;
    if (loaded instanceof Error) return fail(loaded.message);
    loadCatalog();
    state.ready = true;
    $('start').disabled = false;
    if (params.get('autorun') === '1') start();
  }

  main().catch((e) => fail(`the page failed to start: ${e && e.message ? e.message : e}`));
})();
