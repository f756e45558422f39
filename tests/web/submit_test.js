// web/submit.js (the page's and the Deno entry's submitter) against a scripted fetch: 429 and 503
// are asked again after Retry-After (else 1, 2, 4, 8 s), bounded in attempts and waiting, each wait
// said; other answers and unreachable servers are final. Waits are recorded, not slept.
// usage: node submit_test.js path/to/web/submit.js
'use strict';
const assert = require('node:assert');
require(require('node:path').resolve(process.argv[2]));

// A fetch answering with `answers` in turn ({status, retryAfter, body} or an Error to throw).
function scripted(answers) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({url, init});
    const a = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (a instanceof Error) throw a;
    return {
      ok: a.status >= 200 && a.status < 300,
      status: a.status,
      headers: {get: (name) => (name === 'Retry-After' && a.retryAfter !== undefined ? String(a.retryAfter) : null)},
      json: async () => a.body || (a.status === 201 ? {url: '/runs/7'} : {error: 'busy here'}),
    };
  };
  return {fetch, calls};
}

async function submit(answers, options = {}) {
  const s = scripted(answers);
  globalThis.fetch = s.fetch;
  const slept = [], said = [];
  const r = await globalThis.wgbSubmitDocument('http://server/api/v1/results', {rows: []}, {
    sleep: async (x) => slept.push(x), say: (l) => said.push(l), ...options});
  return {r, slept, said, calls: s.calls};
}

(async () => {
  let t = await submit([{status: 429, retryAfter: 2}, {status: 503}, {status: 201}]);
  assert.strictEqual(t.r.ok, true);
  assert.strictEqual(t.r.url, '/runs/7');
  assert.strictEqual(t.calls.length, 3);
  assert.deepStrictEqual(t.slept, [2, 2]);  // as asked, then the second backoff step
  assert.match(t.said[0], /HTTP 429 .*in 2 s as its Retry-After asks \(attempt 2 of 5\)/);
  assert.match(t.said[1], /HTTP 503/);

  t = await submit([{status: 503}]);
  assert.strictEqual(t.r.ok, false);
  assert.strictEqual(t.calls.length, 5);
  assert.deepStrictEqual(t.slept, [1, 2, 4, 8]);
  assert.match(t.r.error, /HTTP 503 5 times after 15 s of waiting.*gave up/);

  t = await submit([{status: 429, retryAfter: 3600}, {status: 201}]);
  assert.strictEqual(t.r.ok, false);
  assert.strictEqual(t.calls.length, 1);
  assert.deepStrictEqual(t.slept, []);
  assert.match(t.r.error, /asked for 3600 s more/);

  t = await submit([{status: 400, body: {error: 'no rows'}}, {status: 201}]);
  assert.strictEqual(t.r.ok, false);
  assert.strictEqual(t.r.error, 'no rows');
  assert.strictEqual(t.calls.length, 1);

  t = await submit([new Error('refused')]);
  assert.strictEqual(t.r.ok, false);
  assert.match(t.r.error, /could not be reached: refused/);

  t = await submit([{status: 201}], {token: 'abc'});
  assert.strictEqual(t.calls[0].init.headers.Authorization, 'Bearer abc');

  assert.strictEqual(globalThis.wgbRetryAfterSeconds('5'), 5);
  assert.strictEqual(globalThis.wgbRetryAfterSeconds(null), null);
  assert.strictEqual(globalThis.wgbRetryAfterSeconds('soon'), null);
  const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
  assert.strictEqual(globalThis.wgbRetryAfterSeconds('Wed, 21 Oct 2026 07:28:10 GMT', now), 10);
  console.log('submit.js: all checks passed');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
