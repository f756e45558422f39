// Submitting a result document to a results server, for the /run page (a classic script) and the
// Deno entry (which imports it): one POST, and when the server answers 429 (too many submissions)
// or 503 (busy) the same POST again after the time its Retry-After asks for (else 1, 2, 4, 8 s),
// at most 5 attempts and 120 s of waiting in all; every wait is said through `say`. Other answers
// are final. Resolves to {ok, status, url, duplicate, error, attempts, waited_s}.
'use strict';

// Seconds a Retry-After header asks for (a number of seconds or an HTTP date); null when absent.
globalThis.wgbRetryAfterSeconds = function (value, now = Date.now()) {
  if (value === null || value === undefined || String(value).trim() === '') return null;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
};

globalThis.wgbSubmitDocument = async function (url, doc, options = {}) {
  const say = options.say || (() => {});
  const maxAttempts = options.maxAttempts || 5;
  const maxWaitS = options.maxWaitS ?? 120;
  const sleep = options.sleep || ((s) => new Promise((r) => setTimeout(r, s * 1000)));
  const headers = {'Content-Type': 'application/json'};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const body = JSON.stringify(doc);
  let waited = 0;
  for (let attempt = 1; ; ++attempt) {
    let res, reply = {};
    try {
      res = await fetch(url, {method: 'POST', headers, body});
      reply = await res.json().catch(() => ({}));
    } catch (e) {
      return {ok: false, status: 0, error: `the server could not be reached: ${e.message}`, attempts: attempt,
              waited_s: waited};
    }
    if (res.ok && typeof reply.url === 'string') {
      return {ok: true, status: res.status, url: reply.url, duplicate: !!reply.duplicate, attempts: attempt,
              waited_s: waited};
    }
    const why = reply.error || `HTTP ${res.status}`;
    if (res.status !== 429 && res.status !== 503) {
      return {ok: false, status: res.status, error: why, attempts: attempt, waited_s: waited};
    }
    const asked = globalThis.wgbRetryAfterSeconds(res.headers.get('Retry-After'));
    const wait = asked !== null ? asked : 2 ** (attempt - 1);
    if (attempt >= maxAttempts || waited + wait > maxWaitS) {
      const tail = asked !== null ? ` (the server asked for ${asked} s more)` : '';
      return {ok: false, status: res.status, attempts: attempt, waited_s: waited,
              error: `HTTP ${res.status} ${attempt} time${attempt === 1 ? '' : 's'} after ${waited} s of waiting: ` +
                     `${why}${tail}; gave up`};
    }
    say(`HTTP ${res.status} (${why}): trying again in ${wait} s` +
        `${asked !== null ? ' as its Retry-After asks' : ''} (attempt ${attempt + 1} of ${maxAttempts})`);
    await sleep(wait);
    waited += wait;
  }
};
