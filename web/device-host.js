// The device host of the browser runner (docs/browser.md): owns the GPUDevice and executes the
// engine's requests, which arrive as frames on the shared channel. The engine (C++ in WebAssembly,
// engine-worker.js) blocks on Atomics.wait until the reply is written; this side is asynchronous
// WebGPU. Runs in a dedicated worker when WebGPU exists there, otherwise on the main thread (run.js
// loads this file as a script and makes a WgbDeviceHost itself).
//
// Channel: Int32Array header at byte 0: [0] state (0 idle, 1 request ready, 2 response ready,
// 3 closed), [1] frame length, [2] cancel flag, [3] paused flag; the frame from byte 16.
// Frame: u32 little-endian JSON length | UTF-8 JSON | binary payload.
'use strict';

const WGB_HEADER_BYTES = 16;
const WGB_STATE = 0, WGB_LENGTH = 1;
const WGB_IDLE = 0, WGB_REQUEST = 1, WGB_RESPONSE = 2, WGB_CLOSED = 3;

function wgbDecodeFrame(bytes) {
  // `bytes` is an ordinary (non-shared) copy: TextDecoder refuses views of shared memory.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 4) throw new Error('a frame shorter than its length prefix');
  const jsonLength = view.getUint32(0, true);
  if (4 + jsonLength > bytes.byteLength) throw new Error('a frame whose JSON runs past its end');
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + jsonLength)));
  return {json, payload: bytes.subarray(4 + jsonLength)};
}

function wgbEncodeFrame(json, payload) {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const extra = payload ? payload.byteLength : 0;
  const out = new Uint8Array(4 + text.byteLength + extra);
  new DataView(out.buffer).setUint32(0, text.byteLength, true);
  out.set(text, 4);
  if (payload) out.set(payload, 4 + text.byteLength);
  return out;
}

// An error reply: kind is one of out-of-memory, validation, compile, lost, unsupported, internal.
class WgbHostError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

function wgbErrorKind(gpuError) {
  if (typeof GPUOutOfMemoryError !== 'undefined' && gpuError instanceof GPUOutOfMemoryError) return 'out-of-memory';
  if (typeof GPUValidationError !== 'undefined' && gpuError instanceof GPUValidationError) return 'validation';
  return 'internal';
}

class WgbDeviceHost {
  constructor(sab, thread) {
    this.sab = sab;
    this.header = new Int32Array(sab, 0, 4);
    this.frame = new Uint8Array(sab, WGB_HEADER_BYTES);
    this.thread = thread;  // "worker" | "main"
    this.adapter = null;
    this.device = null;
    this.info = null;       // the init reply, cached: the page shows it before the run starts
    this.lostMessage = null;
    this.uncaptured = [];   // uncaptured errors since the last pass reply
    this.buffers = new Map();
    this.pipelines = new Map();
    this.bindGroups = new Map();
    // "release" drops the engine's handle, as with Dawn's reference-counted objects: a buffer a
    // live bind group still uses is destroyed only when the last such bind group is released.
    this.bindGroupBuffers = new Map();  // bind group id -> buffer ids it uses
    this.bufferUsers = new Map();       // buffer id -> live bind groups using it
    this.released = new Set();          // buffers released by the engine, kept for their bind groups
    this.querySet = null;
    this.resolveBuffer = null;
    this.stampBuffer = null;
    this.quantum = 0n;      // gcd of every timestamp seen: the timer's step in ns (0: none seen)
    this.busy = Promise.resolve();
    this.onLost = null;     // callback(message), for the page
  }

  // One request at a time, in order: the engine never sends a second before the first's reply.
  wake() {
    this.busy = this.busy.then(() => this.serve());
  }

  async serve() {
    if (Atomics.load(this.header, WGB_STATE) !== WGB_REQUEST) return;
    const length = Atomics.load(this.header, WGB_LENGTH);
    let reply;
    try {
      if (length < 4 || length > this.frame.byteLength) throw new WgbHostError('internal', `a request frame of ${length} bytes`);
      const {json, payload} = wgbDecodeFrame(this.frame.slice(0, length));
      reply = await this.execute(json, payload);
    } catch (e) {
      const kind = e instanceof WgbHostError ? e.kind : 'internal';
      reply = {json: {error: kind, message: String(e && e.message ? e.message : e)}};
    }
    let bytes = wgbEncodeFrame(reply.json, reply.payload);
    if (bytes.byteLength > this.frame.byteLength) {
      bytes = wgbEncodeFrame({error: 'internal', message: `a reply of ${bytes.byteLength} bytes does not fit the channel`});
    }
    this.frame.set(bytes, 0);
    Atomics.store(this.header, WGB_LENGTH, bytes.byteLength);
    Atomics.store(this.header, WGB_STATE, WGB_RESPONSE);
    Atomics.notify(this.header, WGB_STATE);
  }

  async execute(req, payload) {
    const op = req.op;
    if (op === 'init') return {json: await this.init()};
    if (!this.device) throw new WgbHostError('internal', `"${op}" before "init"`);
    if (this.lostMessage !== null) throw new WgbHostError('lost', `the device was lost: ${this.lostMessage}`);
    switch (op) {
      case 'buffer': return {json: await this.createBuffer(req, payload)};
      case 'write': return {json: await this.write(req, payload)};
      case 'pipeline': return {json: await this.createPipeline(req)};
      case 'bind_group': return {json: await this.createBindGroup(req)};
      case 'pass': return {json: await this.pass(req)};
      case 'copy': return {json: await this.copy(req)};
      case 'read': return this.read(req);
      case 'release': return {json: this.release(req)};
      default: throw new WgbHostError('unsupported', `this browser host does not implement the request "${String(op).slice(0, 64)}"`);
    }
  }

  // The adapter and a device with every feature and the adapter's maximum limits. A second init
  // (a second run in the same page) keeps the device and forgets the objects of the first.
  async init() {
    this.forgetObjects();
    if (this.info && this.lostMessage === null) return this.info;
    if (!('gpu' in navigator) || !navigator.gpu) {
      throw new WgbHostError('unsupported', 'this browser exposes no WebGPU (navigator.gpu is missing)');
    }
    const adapter = await navigator.gpu.requestAdapter({powerPreference: 'high-performance'});
    if (!adapter) {
      throw new WgbHostError('unsupported', 'this browser exposes no WebGPU adapter (navigator.gpu.requestAdapter() returned null)');
    }
    const features = [...adapter.features].sort();
    const limits = {};
    for (const name in adapter.limits) {
      const v = adapter.limits[name];
      if (typeof v === 'number') limits[name] = v;
    }
    let device;
    try {
      device = await adapter.requestDevice({requiredFeatures: features, requiredLimits: limits});
    } catch (e) {
      // Some browsers refuse a limit they reported; the defaults still measure, so say so and go on.
      device = await adapter.requestDevice({requiredFeatures: features});
      for (const name in device.limits) limits[name] = device.limits[name];
    }
    const info = adapter.info || (adapter.requestAdapterInfo ? await adapter.requestAdapterInfo() : {});
    this.adapter = adapter;
    this.device = device;
    this.lostMessage = null;
    device.lost.then((lost) => {
      this.lostMessage = `${lost.reason || 'unknown'}: ${lost.message || 'no message'}`;
      if (this.onLost) this.onLost(this.lostMessage);
    });
    device.onuncapturederror = (ev) => {
      if (this.uncaptured.length < 32) this.uncaptured.push(String(ev.error && ev.error.message ? ev.error.message : ev.error));
    };
    const timestamps = device.features.has('timestamp-query');
    if (timestamps) {
      this.querySet = device.createQuerySet({type: 'timestamp', count: 2});
      this.resolveBuffer = device.createBuffer({size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC});
    }
    const isFallback = info.isFallbackAdapter !== undefined ? info.isFallbackAdapter : !!adapter.isFallbackAdapter;
    const identity = wgbAdapterIdentity(info);
    const subgroups = {};
    if (typeof info.subgroupMinSize === 'number') subgroups.subgroup_min_size = info.subgroupMinSize;
    if (typeof info.subgroupMaxSize === 'number') subgroups.subgroup_max_size = info.subgroupMaxSize;
    this.info = {
      ok: true,
      adapter: {
        vendor: identity.vendor,
        architecture: identity.architecture,
        device: identity.device,
        description: identity.description,
        ...(identity.vendor_id !== undefined ? {vendor_id: identity.vendor_id} : {}),
        ...(identity.device_id !== undefined ? {device_id: identity.device_id} : {}),
        is_fallback_adapter: !!isFallback,
        ...subgroups,
      },
      adapter_source: identity.source,
      implementation: wgbImplementation(navigator.userAgent),
      wgsl_features: navigator.gpu.wgslLanguageFeatures ? [...navigator.gpu.wgslLanguageFeatures].sort() : [],
      features: [...device.features].sort(),
      limits,
      timestamps,
      timestamp_quantization_ns: timestamps ? await this.probeQuantum() : null,
      user_agent: navigator.userAgent,
      webgpu_thread: this.thread,
    };
    return this.info;
  }

  // The timer's step: the gcd of a few timestamps of a tiny pass (1 where timestamps are exact,
  // 65536 or 100000 where the browser quantizes them). Null when no stamp was non-zero.
  async probeQuantum() {
    const device = this.device;
    const module = device.createShaderModule({
      code: '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n' +
            '@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {\n' +
            '  var x = g.x; for (var i = 0u; i < 64u; i++) { x = x * 1664525u + 1013904223u; } o[g.x] = x; }\n'});
    const pipeline = await device.createComputePipelineAsync({layout: 'auto', compute: {module, entryPoint: 'main'}});
    const out = device.createBuffer({size: 64 * 64 * 4, usage: GPUBufferUsage.STORAGE});
    const bindGroup = device.createBindGroup({layout: pipeline.getBindGroupLayout(0), entries: [{binding: 0, resource: {buffer: out}}]});
    for (let i = 0; i < 6; ++i) {
      await this.timedPass(true, (pass) => {
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(64);
      });
    }
    out.destroy();
    return this.quantum > 0n ? Number(this.quantum) : null;
  }

  // Ends the device in order (its objects, then the device itself, awaiting the queue) so that a
  // runtime can exit without tearing a live device down: Deno on NVIDIA's driver crashed at exit
  // when its worker ended with the device alive.
  async close() {
    if (!this.device) return;
    const device = this.device;
    this.onLost = null;  // a destroyed device resolves `lost`: that is not news
    try {
      await device.queue.onSubmittedWorkDone();
    } catch (e) {
      // already lost: nothing in flight to wait for
    }
    this.forgetObjects();
    if (this.querySet) this.querySet.destroy();
    if (this.resolveBuffer) this.resolveBuffer.destroy();
    this.querySet = null;
    this.resolveBuffer = null;
    device.destroy();
    this.device = null;
    this.adapter = null;
  }

  forgetObjects() {
    for (const b of this.buffers.values()) b.destroy();
    this.buffers.clear();
    this.pipelines.clear();
    this.bindGroups.clear();
    this.bindGroupBuffers.clear();
    this.bufferUsers.clear();
    this.released.clear();
    this.uncaptured = [];
  }

  buffer(id) {
    const b = this.buffers.get(id);
    if (!b) throw new WgbHostError('internal', `no buffer ${id}`);
    return b;
  }

  // Runs `fn` inside out-of-memory and validation scopes; a captured error becomes the reply.
  async scoped(fn) {
    const device = this.device;
    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    let value, thrown = null;
    try {
      value = await fn();
    } catch (e) {
      thrown = e;
    }
    const validation = await device.popErrorScope();
    const oom = await device.popErrorScope();
    if (thrown) {
      if (thrown instanceof WgbHostError) throw thrown;
      // createBuffer throws a RangeError when it cannot even map the size it was asked for.
      const kind = thrown instanceof RangeError ? 'out-of-memory' : 'internal';
      throw new WgbHostError(kind, String(thrown.message || thrown));
    }
    if (oom) throw new WgbHostError('out-of-memory', oom.message);
    if (validation) throw new WgbHostError('validation', validation.message);
    if (this.lostMessage !== null) throw new WgbHostError('lost', `the device was lost: ${this.lostMessage}`);
    return value;
  }

  async createBuffer(req, payload) {
    const size = Number(req.size);
    const initial = payload && payload.byteLength > 0;
    // The engine pads initial contents to 4 bytes; more than that is a request to refuse.
    if (initial && payload.byteLength > Math.ceil(size / 4) * 4) {
      throw new WgbHostError('validation', `initial contents of ${payload.byteLength} bytes for a buffer of ${size}`);
    }
    if (initial && payload.byteLength > size) payload = payload.subarray(0, size);
    const buffer = await this.scoped(() => {
      const b = this.device.createBuffer({size, usage: req.usage, label: req.label || undefined, mappedAtCreation: initial && size % 4 === 0});
      if (initial) {
        if (size % 4 === 0) {
          new Uint8Array(b.getMappedRange()).set(payload);
          b.unmap();
        } else {
          // writeBuffer moves whole 4-byte words: the last partial word stays zero.
          const words = payload.byteLength - (payload.byteLength % 4);
          if (words > 0) this.device.queue.writeBuffer(b, 0, payload, 0, words);
        }
      }
      return b;
    });
    const old = this.buffers.get(req.id);
    if (old) old.destroy();
    this.buffers.set(req.id, buffer);
    return {ok: true};
  }

  async write(req, payload) {
    const b = this.buffer(req.buffer);
    await this.scoped(() => this.device.queue.writeBuffer(b, Number(req.offset || 0), payload || new Uint8Array(0)));
    return {ok: true};
  }

  async createPipeline(req) {
    const device = this.device;
    // The compilation messages say what is wrong; the scope keeps the same error from also
    // reaching the uncaptured-error list of the next pass.
    device.pushErrorScope('validation');
    const module = device.createShaderModule({code: String(req.wgsl), label: req.label || undefined});
    const info = await module.getCompilationInfo();
    const moduleError = await device.popErrorScope();
    const errors = info.messages.filter((m) => m.type === 'error');
    if (errors.length > 0) {
      const text = errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('\n');
      throw new WgbHostError('compile', text);
    }
    if (moduleError) throw new WgbHostError('compile', moduleError.message);
    const compute = {module, entryPoint: req.entry || 'main'};
    if (req.constants && Object.keys(req.constants).length > 0) compute.constants = req.constants;
    let pipeline;
    try {
      pipeline = await this.scoped(() => device.createComputePipelineAsync({layout: 'auto', compute, label: req.label || undefined}));
    } catch (e) {
      // GPUPipelineError: the module compiled but the pipeline could not be made (e.g. limits).
      if (e instanceof WgbHostError && e.kind === 'internal') throw new WgbHostError('validation', e.message);
      throw e;
    }
    this.pipelines.set(req.id, pipeline);
    return {ok: true};
  }

  async createBindGroup(req) {
    const pipeline = this.pipelines.get(req.pipeline);
    if (!pipeline) throw new WgbHostError('internal', `no pipeline ${req.pipeline}`);
    const entries = (req.entries || []).map((e) => {
      const resource = {buffer: this.buffer(e.buffer)};
      if (e.offset !== undefined) resource.offset = Number(e.offset);
      if (e.size !== undefined && e.size !== null && Number(e.size) > 0) resource.size = Number(e.size);
      return {binding: e.binding, resource};
    });
    const group = await this.scoped(() => this.device.createBindGroup({layout: pipeline.getBindGroupLayout(req.group || 0), entries}));
    this.bindGroups.set(req.id, group);
    const used = [...new Set((req.entries || []).map((e) => e.buffer))];
    this.bindGroupBuffers.set(req.id, used);
    for (const b of used) this.bufferUsers.set(b, (this.bufferUsers.get(b) || 0) + 1);
    return {ok: true};
  }

  // One command encoder and one compute pass; the wall clock from before submit to
  // onSubmittedWorkDone, the GPU time from the pass's two timestamps (docs/method.md#clocks).
  async timedPass(timestamps, record) {
    const device = this.device;
    const stamped = timestamps && this.querySet !== null;
    const encoder = device.createCommandEncoder();
    const descriptor = stamped ? {timestampWrites: {querySet: this.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1}} : {};
    const pass = encoder.beginComputePass(descriptor);
    record(pass);
    pass.end();
    let staging = null;
    if (stamped) {
      staging = device.createBuffer({size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST});
      encoder.resolveQuerySet(this.querySet, 0, 2, this.resolveBuffer, 0);
      encoder.copyBufferToBuffer(this.resolveBuffer, 0, staging, 0, 16);
    }
    const commands = encoder.finish();
    const t0 = performance.now();
    device.queue.submit([commands]);
    await device.queue.onSubmittedWorkDone();
    const t1 = performance.now();
    let gpuMs = null;
    if (staging) {
      await staging.mapAsync(GPUMapMode.READ);
      const stamps = new BigInt64Array(staging.getMappedRange().slice(0));
      staging.unmap();
      staging.destroy();
      const [begin, end] = [stamps[0], stamps[1]];
      for (const s of [begin, end]) {
        const v = s < 0n ? -s : s;
        if (v !== 0n) this.quantum = this.quantum === 0n ? v : wgbGcd(this.quantum, v);
      }
      // Zero stamps mean the pass was not timed (a browser may drop them); never a duration.
      if (begin !== 0n || end !== 0n) gpuMs = Number(end - begin) / 1e6;
    }
    return {wallMs: t1 - t0, gpuMs};
  }

  async pass(req) {
    const commands = Array.isArray(req.commands) ? req.commands : [];
    const timing = await this.scoped(() => this.timedPass(!!req.timestamps, (pass) => {
      for (const c of commands) {
        if (c[0] === 'pipeline') {
          const p = this.pipelines.get(c[1]);
          if (!p) throw new WgbHostError('internal', `no pipeline ${c[1]}`);
          pass.setPipeline(p);
        } else if (c[0] === 'bind_group') {
          const g = this.bindGroups.get(c[2]);
          if (!g) throw new WgbHostError('internal', `no bind group ${c[2]}`);
          pass.setBindGroup(c[1], g);
        } else if (c[0] === 'dispatch') {
          pass.dispatchWorkgroups(c[1], c[2] || 1, c[3] || 1);
        } else {
          throw new WgbHostError('unsupported', `unknown pass command "${String(c[0]).slice(0, 64)}"`);
        }
      }
    }));
    const errors = this.uncaptured.splice(0, this.uncaptured.length);
    return {ok: true, wall_ms: timing.wallMs, gpu_ms: timing.gpuMs, errors};
  }

  async copy(req) {
    const src = this.buffer(req.src), dst = this.buffer(req.dst);
    await this.scoped(async () => {
      const encoder = this.device.createCommandEncoder();
      encoder.copyBufferToBuffer(src, Number(req.src_offset || 0), dst, Number(req.dst_offset || 0), Number(req.size));
      this.device.queue.submit([encoder.finish()]);
      await this.device.queue.onSubmittedWorkDone();
    });
    return {ok: true};
  }

  // Read-back through a MAP_READ staging buffer; copies need 4-byte alignment, so the aligned
  // range around the request is copied and the requested bytes cut from it.
  async read(req) {
    const src = this.buffer(req.buffer);
    const offset = Number(req.offset || 0), size = Number(req.size);
    if (size + 4096 > this.frame.byteLength) throw new WgbHostError('internal', `a read of ${size} bytes does not fit the channel`);
    const start = offset - (offset % 4);
    const end = Math.ceil((offset + size) / 4) * 4;
    const bytes = await this.scoped(async () => {
      const staging = this.device.createBuffer({size: Math.max(4, end - start), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST});
      const encoder = this.device.createCommandEncoder();
      if (end > start) encoder.copyBufferToBuffer(src, start, staging, 0, end - start);
      this.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const copy = new Uint8Array(staging.getMappedRange().slice(offset - start, offset - start + size));
      staging.unmap();
      staging.destroy();
      return copy;
    });
    return {json: {ok: true}, payload: bytes};
  }

  release(req) {
    for (const id of req.ids || []) {
      if (this.buffers.has(id)) {
        this.released.add(id);
        this.destroyIfUnused(id);
      }
      this.pipelines.delete(id);
      if (this.bindGroups.delete(id)) {
        for (const b of this.bindGroupBuffers.get(id) || []) {
          this.bufferUsers.set(b, (this.bufferUsers.get(b) || 1) - 1);
          this.destroyIfUnused(b);
        }
        this.bindGroupBuffers.delete(id);
      }
    }
    return {ok: true};
  }

  // Destroyed at once (its memory back to the GPU, which the memory suite's halving relies on),
  // unless a live bind group still uses it.
  destroyIfUnused(id) {
    if (!this.released.has(id) || (this.bufferUsers.get(id) || 0) > 0) return;
    const b = this.buffers.get(id);
    if (b) b.destroy();
    this.buffers.delete(id);
    this.bufferUsers.delete(id);
    this.released.delete(id);
  }
}

// Which WebGPU implementation runs this code, from the user agent (no runtime reports the version
// of its WebGPU implementation: webgpu_version stays null). Chromium-based browsers run Dawn,
// Firefox and Deno run wgpu, Safari runs WebKit's own.
function wgbImplementation(ua) {
  ua = String(ua || '');
  const m = (re) => (ua.match(re) || [])[1] || '';
  let runtime = 'browser', version = '', webgpu = '';
  if (/\bDeno\//.test(ua)) [runtime, version, webgpu] = ['deno', m(/\bDeno\/(\S+)/), 'wgpu'];
  else if (/\bFirefox\//.test(ua)) [runtime, version, webgpu] = ['firefox', m(/\bFirefox\/([\d.]+)/), 'wgpu'];
  else if (/\b(Chrome|Chromium|Edg)\//.test(ua)) [runtime, version, webgpu] = ['chromium', m(/\b(?:Chrome|Chromium)\/([\d.]+)/), 'Dawn'];
  else if (/\bSafari\//.test(ua)) [runtime, version, webgpu] = ['safari', m(/\bVersion\/([\d.]+)/), 'WebKit'];
  return {runtime, runtime_version: version, webgpu, webgpu_version: null, source: 'user agent'};
}

// The adapter's identity: adapter.info, or where a browser leaves it empty (Firefox) what WebGL says
// about the same GPU (its renderer string, unmasked where the browser allows), with the source named.
function wgbAdapterIdentity(info) {
  const id = {vendor: info.vendor || '', architecture: info.architecture || '', device: info.device || '',
              description: info.description || '', source: 'adapter.info'};
  // wgpu (Deno) reports PCI ids in decimal where Dawn reports names: the vendor's usual name, the
  // device left to the description.
  const vendors = {4318: 'nvidia', 4098: 'amd', 32902: 'intel', 65541: 'mesa', 5045: 'arm', 20803: 'qualcomm',
                   4203: 'apple', 6880: 'google', 5348: 'broadcom', 4112: 'imgtec'};
  if (/^\d+$/.test(id.vendor)) {
    id.vendor_id = Number(id.vendor);
    id.vendor = vendors[id.vendor_id] || '';
  }
  if (/^\d+$/.test(id.device)) {
    id.device_id = Number(id.device);
    id.device = '';
  }
  if (id.vendor || id.architecture || id.device || id.description) return id;
  try {
    const canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1)
                 : typeof document !== 'undefined' ? document.createElement('canvas') : null;
    const gl = canvas && (canvas.getContext('webgl2') || canvas.getContext('webgl'));
    if (gl) {
      const ext = gl.getExtension('WEBGL_debug_renderer_info');
      const renderer = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || '');
      const vendor = String(gl.getParameter(ext ? ext.UNMASKED_VENDOR_WEBGL : gl.VENDOR) || '');
      if (renderer) {
        id.description = renderer;
        id.source = ext ? 'webgl unmasked renderer' : 'webgl renderer';
        if (vendor && !/^(Mozilla|WebKit)$/.test(vendor)) id.description = `${renderer} (${vendor})`;
        return id;
      }
    }
  } catch (e) {
    // No WebGL here (a headless browser, a worker without OffscreenCanvas): nothing to add.
  }
  id.source = 'none';
  return id;
}

function wgbGcd(a, b) {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

// In a dedicated worker: the page sends {type:"probe", sab} (does WebGPU exist here? the host is
// made), {type:"init"} (the adapter, shown before any run), {type:"port", port} per run (the
// engine's end of a fresh MessageChannel) and {type:"close"} before the worker ends (a runtime
// without a page: deno.js). The device outlives runs.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let host = null;
  self.onmessage = (ev) => {
    const m = ev.data;
    if (m.type === 'probe') {
      const gpu = 'gpu' in navigator && !!navigator.gpu;
      if (gpu && !host) {
        host = new WgbDeviceHost(m.sab, 'worker');
        host.onLost = (message) => self.postMessage({type: 'lost', message});
      }
      self.postMessage({type: 'probe', gpu});
    } else if (m.type === 'port') {
      m.port.onmessage = () => host.wake();
    } else if (m.type === 'init') {
      // Queued behind any request in flight, like the engine's own requests.
      host.busy = host.busy.then(() => host.init()).then(
          (reply) => self.postMessage({type: 'init', reply}),
          (e) => self.postMessage({type: 'init', reply: {error: e.kind || 'internal', message: String(e.message || e)}}));
    } else if (m.type === 'close') {
      // {type:"close"}: the device ended in order before the worker is; answered {type:"closed"}.
      const done = (error) => self.postMessage({type: 'closed', error});
      if (!host) done(null);
      else host.busy = host.busy.then(() => host.close()).then(() => done(null), (e) => done(String(e.message || e)));
    }
  };
}
