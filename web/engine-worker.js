// The engine worker of the browser runner (docs/browser.md): runs webgpu-bench-engine.wasm, this
// project's C++ engine compiled to WebAssembly, which is synchronous. Every GPU operation is a
// blocking call: the request frame goes into the shared channel, the device host is woken through
// a MessagePort, and this worker sleeps in Atomics.wait until the reply is there. Events the
// engine emits (progress, rows, the document) are posted to the page as they come.
//
// Messages from the page: {type:"catalog", module} and {type:"run", module, sab, port, options}.
// To the page: {type:"catalog", catalog}, {type:"event", event}, {type:"exit", code},
// {type:"fatal", message}.
'use strict';

const HEADER_BYTES = 16;
const STATE = 0, LENGTH = 1, CANCEL = 2, PAUSED = 3;
const IDLE = 0, REQUEST = 1, RESPONSE = 2, CLOSED = 3;

// WASI errno values the shim answers with.
const ESUCCESS = 0, EBADF = 8, EINVAL = 28, ENOSYS = 52, ESPIPE = 70;

class ProcExit extends Error {
  constructor(code) {
    super(`the engine exited with status ${code}`);
    this.code = code;
  }
}

// The instance and its imports. `channel` is null when only the catalog is wanted.
function makeEngine(module, channel) {
  let memory = null;  // set once instantiated
  const bytes = () => new Uint8Array(memory.buffer);
  const view = () => new DataView(memory.buffer);
  const decoder = new TextDecoder();
  const header = channel ? new Int32Array(channel.sab, 0, 4) : null;
  const frame = channel ? new Uint8Array(channel.sab, HEADER_BYTES) : null;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let responseLength = 0;
  const lines = {1: '', 2: ''};

  const post = (event) => self.postMessage({type: 'event', event});

  const wgb = {
    call(ptr, len) {
      if (!channel || len > frame.byteLength) return -1;
      if (Atomics.load(header, STATE) === CLOSED) return -1;
      frame.set(bytes().subarray(ptr, ptr + len), 0);
      Atomics.store(header, LENGTH, len);
      Atomics.store(header, STATE, REQUEST);
      channel.port.postMessage('req');
      // The host may be on the main thread, which a hidden tab slows down: wait as long as it takes.
      while (Atomics.load(header, STATE) === REQUEST) Atomics.wait(header, STATE, REQUEST, 1000);
      if (Atomics.load(header, STATE) !== RESPONSE) return -1;
      responseLength = Atomics.load(header, LENGTH);
      return responseLength;
    },
    take(dst) {
      bytes().set(frame.subarray(0, responseLength), dst);
      Atomics.store(header, STATE, IDLE);
    },
    emit(ptr, len) {
      const text = decoder.decode(bytes().subarray(ptr, ptr + len));
      try {
        post(JSON.parse(text));
      } catch (e) {
        post({type: 'log', text: `an event that is not JSON: ${text.slice(0, 200)}`});
      }
    },
    flags() {
      if (!header) return 0;
      return (Atomics.load(header, CANCEL) ? 1 : 0) | (Atomics.load(header, PAUSED) ? 2 : 0);
    },
    now_ms() {
      return performance.now();
    },
    sleep_ms(ms) {
      if (ms > 0) Atomics.wait(nap, 0, 0, ms);
    },
  };

  // The few WASI functions wasi-libc pulls in (the list is in docs/browser.md). stdout and stderr
  // become log events, line by line; there are no files, arguments or environment.
  const wasi = {
    fd_write(fd, iovs, iovsLen, nwritten) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const dv = view();
      let total = 0, text = '';
      for (let i = 0; i < iovsLen; ++i) {
        const base = dv.getUint32(iovs + 8 * i, true), len = dv.getUint32(iovs + 8 * i + 4, true);
        text += decoder.decode(bytes().subarray(base, base + len));
        total += len;
      }
      lines[fd] += text;
      let nl;
      while ((nl = lines[fd].indexOf('\n')) >= 0) {
        const line = lines[fd].slice(0, nl);
        lines[fd] = lines[fd].slice(nl + 1);
        (fd === 2 ? console.warn : console.log)(line);
        post({type: 'log', text: line});
      }
      dv.setUint32(nwritten, total, true);
      return ESUCCESS;
    },
    clock_time_get(id, precision, out) {
      // 0 realtime, 1 monotonic (and the CPU-time clocks, which a page cannot see: monotonic).
      // performance.now() from the worker's start keeps sub-microsecond steps exact in a double.
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(performance.now() * 1e6));
      view().setBigUint64(out, ns, true);
      return ESUCCESS;
    },
    clock_res_get(id, out) {
      view().setBigUint64(out, 1000n, true);
      return ESUCCESS;
    },
    random_get(ptr, len) {
      for (let at = 0; at < len; at += 65536) {
        const n = Math.min(65536, len - at);
        const chunk = new Uint8Array(n);
        crypto.getRandomValues(chunk);
        bytes().set(chunk, ptr + at);
      }
      return ESUCCESS;
    },
    environ_sizes_get(count, size) {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return ESUCCESS;
    },
    environ_get() { return ESUCCESS; },
    args_sizes_get(count, size) {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return ESUCCESS;
    },
    args_get() { return ESUCCESS; },
    proc_exit(code) { throw new ProcExit(code); },
    fd_close(fd) { return fd <= 2 ? ESUCCESS : EBADF; },
    fd_seek(fd) { return fd <= 2 ? ESPIPE : EBADF; },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const dv = view();
      dv.setUint8(out, 2);                 // character device
      dv.setUint16(out + 2, 0, true);      // flags
      dv.setBigUint64(out + 8, 0n, true);  // rights
      dv.setBigUint64(out + 16, 0n, true);
      return ESUCCESS;
    },
    fd_prestat_get() { return EBADF; },    // no preopened directories
    fd_prestat_dir_name() { return EINVAL; },
  };

  // Whatever else the module imports answers ENOSYS (and says so once) instead of failing to load.
  const imports = {wgb: {}, wasi_snapshot_preview1: {}};
  const warned = new Set();
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    const table = imp.module === 'wgb' ? wgb : imp.module === 'wasi_snapshot_preview1' ? wasi : null;
    if (!imports[imp.module]) imports[imp.module] = {};
    if (table && table[imp.name]) {
      imports[imp.module][imp.name] = table[imp.name];
    } else {
      imports[imp.module][imp.name] = () => {
        const name = `${imp.module}.${imp.name}`;
        if (!warned.has(name)) {
          warned.add(name);
          post({type: 'log', text: `the engine called ${name}, which the browser does not provide`});
        }
        return ENOSYS;
      };
    }
  }
  const instance = new WebAssembly.Instance(module, imports);
  memory = instance.exports.memory;
  if (instance.exports._initialize) instance.exports._initialize();
  return instance.exports;
}

// A string into the engine's memory: [ptr, len] (the caller frees ptr with wgb_free).
function put(exports, text) {
  const data = new TextEncoder().encode(text);
  const ptr = exports.wgb_alloc(Math.max(1, data.byteLength));
  new Uint8Array(exports.memory.buffer).set(data, ptr);
  return [ptr, data.byteLength];
}

// [u32 len][JSON] at ptr.
function readPrefixed(exports, ptr) {
  const dv = new DataView(exports.memory.buffer);
  const len = dv.getUint32(ptr, true);
  return JSON.parse(new TextDecoder().decode(new Uint8Array(exports.memory.buffer, ptr + 4, len)));
}

self.onmessage = (ev) => {
  const m = ev.data;
  try {
    if (m.type === 'catalog') {
      const exports = makeEngine(m.module, null);
      self.postMessage({type: 'catalog', catalog: readPrefixed(exports, exports.wgb_catalog())});
    } else if (m.type === 'run') {
      const exports = makeEngine(m.module, {sab: m.sab, port: m.port});
      const [ptr, len] = put(exports, JSON.stringify(m.options));
      let code;
      try {
        code = exports.wgb_run(ptr, len);
      } catch (e) {
        if (!(e instanceof ProcExit)) throw e;
        code = e.code;
      }
      self.postMessage({type: 'exit', code});
    }
  } catch (e) {
    // A trap in the engine (a bug, or memory exhausted): the page shows it; what completed was
    // already posted row by row.
    self.postMessage({type: 'fatal', message: `${e && e.name ? e.name + ': ' : ''}${e && e.message ? e.message : e}`});
  }
};
