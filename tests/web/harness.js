// Runs webgpu-bench-engine.wasm in node with a FAKE device host: the engine's imports (module "wgb",
// docs/browser.md "Engine ABI") and the few WASI functions it uses, on a virtual clock, so a whole
// run takes milliseconds and every decision is reproducible. Node 18 or later; CommonJS on purpose.
'use strict';
const fs = require('fs');

// The fake device host: buffers held in JS memory, scripted pass durations, reads returning what
// the engine wrote (or scripted bytes), and ops it refuses as "unsupported".
class FakeHost {
  constructor(opts = {}) {
    this.opts = opts;
    this.buffers = new Map();
    this.pipelines = new Map();
    this.timedPasses = 0;
    this.log = [];
    this.clock = opts.clock;
  }
  init() {
    return {
      ok: true,
      adapter: {vendor: 'fake', architecture: 'scripted', device: 'Fake Device', description: 'node test host',
                is_fallback_adapter: true},
      features: this.opts.features || ['timestamp-query'],
      limits: {maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupsPerDimension: 65535,
               maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024, maxComputeWorkgroupSizeY: 1024,
               maxComputeWorkgroupSizeZ: 64, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10},
      timestamps: this.opts.timestamps !== false,
      user_agent: 'node-fake-host', webgpu_thread: 'worker',
    };
  }
  handle(req, payload) {
    this.log.push(req.op);
    if (this.opts.refuse && this.opts.refuse(req)) {
      return {error: 'unsupported', message: `the fake host does not do '${req.op}' here`};
    }
    switch (req.op) {
      case 'init': return this.opts.noAdapter
          ? {error: 'unsupported', message: 'this browser exposes no WebGPU adapter (navigator.gpu is undefined)'}
          : this.init();
      case 'buffer': {
        const data = new Uint8Array(req.size);
        if (payload.length) data.set(payload.subarray(0, req.size));
        this.buffers.set(req.id, data);
        return {ok: true};
      }
      case 'write': {
        this.buffers.get(req.buffer).set(payload, req.offset);
        return {ok: true};
      }
      case 'pipeline': {
        if (this.opts.compileError && this.opts.compileError(req)) {
          return {error: 'compile', message: '3:7: unresolved identifier'};
        }
        this.pipelines.set(req.id, req.label);
        return {ok: true};
      }
      case 'bind_group': return {ok: true};
      case 'release': for (const id of req.ids) this.buffers.delete(id); return {ok: true};
      case 'copy': return {ok: true};
      case 'read': {
        if (this.opts.readBytes) {
          const scripted = this.opts.readBytes(req);
          if (scripted) return {ok: true, payload: scripted};
        }
        const b = this.buffers.get(req.buffer);
        return {ok: true, payload: b.subarray(req.offset, req.offset + req.size)};
      }
      case 'pass': {
        const dispatches = req.commands.filter((c) => c[0] === 'dispatch').length;
        if (this.opts.floor) return this.passBehindFloor(req, dispatches);
        const s = this.opts.script;
        if (!req.timestamps || !s) {
          const wall = s ? s.empty_submit_ms : 0.05;
          this.clock.advance(wall);
          return {ok: true, wall_ms: wall, gpu_ms: null, errors: []};
        }
        const f = s.factors[this.timedPasses % s.factors.length];
        this.timedPasses++;
        const gpu = s.per_dispatch_ms * dispatches * f;
        this.clock.advance(gpu + s.wall_extra_ms);
        if (this.opts.afterTimedPass) this.opts.afterTimedPass(this.timedPasses);
        return {ok: true, wall_ms: gpu + s.wall_extra_ms, gpu_ms: gpu, errors: []};
      }
      default: return {error: 'unsupported', message: `unknown op '${req.op}'`};
    }
  }
  // A host whose completion callback has a round-trip floor (Firefox polls for completion about
  // every 100 ms, Deno about every 11 ms): every pass, empty or not, reads floor.ms plus the next
  // of floor.jitter_ms (cycled) on the wall clock on top of its GPU time, which follows the script.
  passBehindFloor(req, dispatches) {
    const f = this.opts.floor;
    const floor = f.ms + f.jitter_ms[(this.floorPasses = (this.floorPasses || 0) + 1) % f.jitter_ms.length];
    let gpu = 0;
    if (dispatches > 0) {
      const s = this.opts.script;
      gpu = s.per_dispatch_ms * dispatches * s.factors[this.timedPasses % s.factors.length];
      this.timedPasses++;
    }
    this.clock.advance(gpu + floor);
    return {ok: true, wall_ms: gpu + floor, gpu_ms: req.timestamps && dispatches > 0 ? gpu : null, errors: []};
  }
}

class VirtualClock {
  constructor() { this.ms = 1000; }
  advance(ms) { this.ms += Math.max(0, ms); }
}

// Runs wgb_run(options) to its end; returns {exit, events, host, stderr}.
function runEngine(wasmPath, options, hostOpts = {}) {
  const clock = new VirtualClock();
  const host = new FakeHost({...hostOpts, clock});
  const events = [];
  let flags = 0;
  let memory;
  let response = new Uint8Array(0);
  let stderr = '';
  const bytes = () => new Uint8Array(memory.buffer);
  const view = () => new DataView(memory.buffer);
  const text = (ptr, len) => Buffer.from(bytes().subarray(ptr, ptr + len)).toString('utf8');
  const wgb = {
    call(ptr, len) {
      const frame = bytes().slice(ptr, ptr + len);
      const jsonLen = new DataView(frame.buffer).getUint32(0, true);
      const req = JSON.parse(Buffer.from(frame.subarray(4, 4 + jsonLen)).toString('utf8'));
      const reply = host.handle(req, frame.subarray(4 + jsonLen));
      const payload = reply.payload || new Uint8Array(0);
      delete reply.payload;
      const json = Buffer.from(JSON.stringify(reply), 'utf8');
      response = new Uint8Array(4 + json.length + payload.length);
      new DataView(response.buffer).setUint32(0, json.length, true);
      response.set(json, 4);
      response.set(payload, 4 + json.length);
      return response.length;
    },
    take(dst) { bytes().set(response, dst); },
    emit(ptr, len) {
      const e = JSON.parse(text(ptr, len));
      events.push(e);
      if (hostOpts.onEvent) flags = hostOpts.onEvent(e, flags) ?? flags;
    },
    flags() { return hostOpts.flags ? hostOpts.flags(flags, host) : flags; },
    now_ms() { return clock.ms; },
    sleep_ms(ms) { clock.advance(ms); },
  };
  const wasi = {
    fd_write(fd, iovs, count, written) {
      let n = 0;
      for (let i = 0; i < count; i++) {
        const p = view().getUint32(iovs + 8 * i, true), l = view().getUint32(iovs + 8 * i + 4, true);
        stderr += text(p, l);
        n += l;
      }
      view().setUint32(written, n, true);
      return 0;
    },
    clock_time_get(id, precision, out) {
      view().setBigUint64(out, BigInt(Math.round(clock.ms * 1e6)), true);
      return 0;
    },
    random_get(ptr, len) { bytes().fill(7, ptr, ptr + len); return 0; },
    environ_get() { return 0; },
    environ_sizes_get(count, size) { view().setUint32(count, 0, true); view().setUint32(size, 0, true); return 0; },
    proc_exit(code) { throw new Error(`proc_exit(${code})`); },
    fd_close() { return 8; },
    fd_seek() { return 8; },
    fd_fdstat_get() { return 8; },
  };
  const module = new WebAssembly.Module(fs.readFileSync(wasmPath));
  const imports = {wgb, wasi_snapshot_preview1: wasi};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (!imports[imp.module] || !imports[imp.module][imp.name]) {
      throw new Error(`the engine imports ${imp.module}.${imp.name}, which the Engine ABI does not list`);
    }
  }
  const instance = new WebAssembly.Instance(module, imports);
  const x = instance.exports;
  memory = x.memory;
  x._initialize();
  const opts = Buffer.from(JSON.stringify(options), 'utf8');
  const ptr = x.wgb_alloc(opts.length);
  bytes().set(opts, ptr);
  const exit = x.wgb_run(ptr, opts.length);
  x.wgb_free(ptr);
  return {exit, events, host, stderr, exports: x, memory};
}

// The catalog export: [u32 length][JSON array].
function catalog(wasmPath) {
  const module = new WebAssembly.Module(fs.readFileSync(wasmPath));
  const stub = new Proxy({}, {get: () => () => 0});
  const instance = new WebAssembly.Instance(module, {wgb: stub, wasi_snapshot_preview1: stub});
  instance.exports._initialize();
  const ptr = instance.exports.wgb_catalog();
  const m = new Uint8Array(instance.exports.memory.buffer);
  const len = new DataView(instance.exports.memory.buffer).getUint32(ptr, true);
  return JSON.parse(Buffer.from(m.subarray(ptr + 4, ptr + 4 + len)).toString('utf8'));
}

module.exports = {runEngine, catalog, FakeHost};
