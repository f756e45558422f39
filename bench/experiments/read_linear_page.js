// Experiment page script for docs/implementations.md. Evaluate it with cdp_eval.js after replacing
// WGSL by the JSON string of kernels/bandwidth/read_linear.wgsl, REPS by the dispatches per pass and
// PASSES by the timed passes: read-linear over 64 MiB of hashed words (the project's kernel and
// dispatch shape, 4096 workgroups of 256), each pass timed by timestamp queries and by
// performance.now() from submit to onSubmittedWorkDone, one untimed pass first. Returns, per
// dispatch, the best and median of both clocks and the best rate. Not part of the product.
(async () => {
  const a = await navigator.gpu.requestAdapter();
  const d = await a.requestDevice({
    requiredFeatures: ['timestamp-query'],
    requiredLimits: {maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize, maxBufferSize: a.limits.maxBufferSize},
  });
  const bytes = 64 << 20, count = bytes / 16, threads = 4096 * 256;
  const src = d.createBuffer({size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST});
  const words = new Uint32Array(1 << 20);
  for (let i = 0; i < words.length; i++) words[i] = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  for (let o = 0; o < bytes; o += words.byteLength) d.queue.writeBuffer(src, o, words);
  const sink = d.createBuffer({size: 256 * 16, usage: GPUBufferUsage.STORAGE});
  const params = d.createBuffer({size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST});
  d.queue.writeBuffer(params, 0, new Uint32Array([count, threads, 0xdeadbeef, 0x12345678]));
  const pipe = d.createComputePipeline({layout: 'auto', compute: {module: d.createShaderModule({code: WGSL})}});
  const bg = d.createBindGroup({layout: pipe.getBindGroupLayout(0), entries: [
    {binding: 0, resource: {buffer: src}}, {binding: 1, resource: {buffer: sink}}, {binding: 2, resource: {buffer: params}}]});
  const qs = d.createQuerySet({type: 'timestamp', count: 2});
  const resolve = d.createBuffer({size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC});
  const readback = d.createBuffer({size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST});
  const R = REPS, K = PASSES, gpu = [], wall = [];
  for (let k = 0; k <= K; k++) {
    const e = d.createCommandEncoder();
    const pass = e.beginComputePass({timestampWrites: {querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1}});
    pass.setPipeline(pipe);
    pass.setBindGroup(0, bg);
    for (let r = 0; r < R; r++) pass.dispatchWorkgroups(4096);
    pass.end();
    e.resolveQuerySet(qs, 0, 2, resolve, 0);
    e.copyBufferToBuffer(resolve, 0, readback, 0, 16);
    const w0 = performance.now();
    d.queue.submit([e.finish()]);
    await d.queue.onSubmittedWorkDone();
    const w1 = performance.now();
    await readback.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(readback.getMappedRange().slice(0));
    readback.unmap();
    if (k > 0) {
      gpu.push(Number(t[1] - t[0]) / 1e6 / R);
      wall.push((w1 - w0) / R);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const sorted = (v) => [...v].sort((x, y) => x - y);
  const g = sorted(gpu), w = sorted(wall);
  return JSON.stringify({best_ms: g[0], median_ms: g[g.length >> 1], wall_best_ms: w[0], wall_median_ms: w[w.length >> 1],
                         gbps: bytes / (g[0] / 1e3) / 1e9, times: gpu});
})()
