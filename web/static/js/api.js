// The HTTP API as the pages use it: the token kept for this tab, JSON in and out, and every
// refusal turned into a Problem whose detail is the server's own words (RFC 9457).

const KEY = 'coalition.token';

/** Problem is a refusal from the server (or the network failing), with the words to show. */
export class Problem extends Error {
  constructor(status, detail, title) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.title = title || '';
  }
}

let token = sessionStorage.getItem(KEY) || '';
const listeners = new Set();

/** session is the token and the account it was issued for, or null. */
export function session() {
  if (!token) return null;
  try {
    return JSON.parse(sessionStorage.getItem(KEY + '.account') || 'null');
  } catch {
    return null;
  }
}

/** onSession calls f whenever the tab logs in or out. */
export function onSession(f) {
  listeners.add(f);
}

function setSession(t, account) {
  token = t || '';
  if (token) {
    sessionStorage.setItem(KEY, token);
    sessionStorage.setItem(KEY + '.account', JSON.stringify(account));
  } else {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(KEY + '.account');
  }
  for (const f of listeners) f(session());
}

/** changes says whether a method may change something on the server. */
const changes = (method) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);

/**
 * newKey is a fresh idempotency key: a random UUID (crypto.randomUUID needs a secure page;
 * getRandomValues works on any).
 */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * call sends a request to the API and returns {status, data, etag}. A 304 has no data.
 * Anything else that is not 2xx throws a Problem; an expired token logs the tab out. A request
 * that changes something carries an Idempotency-Key (opts.key, or a fresh one) and is sent once
 * more with the same key when the network fails: the server answers a retry with its first
 * answer and never makes the change twice.
 */
export async function call(method, path, body, opts = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.etag) headers['If-None-Match'] = opts.etag;
  const retry = changes(method) && path !== '/api/login';
  if (retry) headers['Idempotency-Key'] = opts.key || newKey();
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' };
  let res;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(path, init);
      break;
    } catch (e) {
      if (!retry || attempt > 0) {
        throw new Problem(0, `The server cannot be reached (${e.message}). Check your connection and try again.`);
      }
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
  const etag = res.headers.get('ETag') || '';
  if (res.status === 304) return { status: 304, data: null, etag };
  const type = res.headers.get('Content-Type') || '';
  const text = await res.text();
  let data = text;
  if (type.includes('json') && text) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new Problem(res.status, `The server sent an answer that is not JSON (${res.status}).`);
    }
  }
  if (!res.ok) {
    const detail = (data && data.detail) || `${res.status} ${res.statusText}`;
    if (res.status === 401 && token && path !== '/api/login') setSession('', null);
    throw new Problem(res.status, detail, data && data.title);
  }
  return { status: res.status, data, etag };
}

/** get is call('GET') returning only the data. */
export async function get(path) {
  return (await call('GET', path)).data;
}

/** login exchanges a name and password for a token kept in this tab only. */
export async function login(name, password) {
  const { data } = await call('POST', '/api/login', { name, password });
  setSession(data.token, data.account);
  return data.account;
}

/** logout forgets the token. */
export function logout() {
  setSession('', null);
}
