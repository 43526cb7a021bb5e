'use strict';
// The keeper mini-program API client (contract: README, "The mini-program API").
//
// Every call resolves (never rejects) to one outcome, so callers decide by kind:
//   ok       200: `data` is the answer
//   rejected 4xx other than 401: this request will never succeed (`data.error/message`)
//   auth     still unauthorised after one fresh login, or the login itself failed
//   server   5xx: keeper or WeChat is unwell, worth trying later
//   network  the request never got an answer (offline, timeout, dropped connection)
// A 401 on a call means the token is stale: log in once, retry once, and stop there so
// a broken login can never loop.

const BASE_PATH = '/api/mp/v1';
const TOKEN_KEY = 'keeper.token';
const EXPIRY_MARGIN_MS = 60 * 1000;

function classify(res) {
  if (res.statusCode >= 200 && res.statusCode < 300) return 'ok';
  if (res.statusCode === 401) return 'auth';
  if (res.statusCode >= 400 && res.statusCode < 500) return 'rejected';
  return 'server';
}

/**
 * @param {object} options
 * @param {object} options.wx the WeChat API object (or a fake with the same shape)
 * @param {string} options.origin keeper's origin, e.g. https://keeper.example.com
 * @param {() => Date} options.now the clock (token expiry is judged on it)
 */
function createApi({ wx, origin, now }) {
  function send(method, path, body, token) {
    return new Promise((resolve) => {
      const header = { 'content-type': 'application/json' };
      if (token) header.Authorization = `Bearer ${token}`;
      wx.request({
        url: origin + BASE_PATH + path,
        method,
        data: body,
        header,
        success: (res) => resolve({ kind: classify(res), status: res.statusCode, data: res.data }),
        fail: (err) => resolve({ kind: 'network', status: 0, data: { errMsg: err && err.errMsg } }),
      });
    });
  }

  function wxLogin() {
    return new Promise((resolve) => {
      wx.login({
        success: (res) => resolve(res.code || null),
        fail: () => resolve(null),
      });
    });
  }

  function storedToken() {
    const saved = wx.getStorageSync(TOKEN_KEY);
    if (!saved || !saved.token) return null;
    // A minute's margin: a token that expires on the way is a wasted round trip.
    if (Date.parse(saved.expires_at) - EXPIRY_MARGIN_MS <= now().getTime()) return null;
    return saved.token;
  }

  async function login() {
    wx.removeStorageSync(TOKEN_KEY);
    const code = await wxLogin();
    if (!code) return { kind: 'network', status: 0, data: { errMsg: 'wx.login failed' } };
    const answer = await send('POST', '/login', { js_code: code }, null);
    if (answer.kind !== 'ok') {
      // The login's own failure is no verdict on the request waiting behind it.
      return { ...answer, kind: answer.kind === 'network' ? 'network' : 'auth' };
    }
    wx.setStorageSync(TOKEN_KEY, { token: answer.data.token, expires_at: answer.data.expires_at });
    return answer;
  }

  /** An authorised call: log in when there is no live token, and once more on a 401. */
  async function call(method, path, body) {
    let token = storedToken();
    if (!token) {
      const first = await login();
      if (first.kind !== 'ok') return first;
      token = first.data.token;
    }
    const answer = await send(method, path, body, token);
    if (answer.kind !== 'auth') return answer;
    const again = await login();
    if (again.kind !== 'ok') return again;
    return send(method, path, body, again.data.token);
  }

  return {
    login,
    status: () => call('GET', '/water', undefined),
    postGrant: (body) => call('POST', '/water/grants', body),
    postAction: (body) => call('POST', '/water/actions', body),
    setPlan: (body) => call('POST', '/water/plan', body),
    link: (code) => call('POST', '/link', { code }),
  };
}

module.exports = { createApi, BASE_PATH, TOKEN_KEY };
