'use strict';
// Login, the bearer token, and the one re-login on a 401.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setup } = require('./support');
const { TOKEN_KEY } = require('../lib/api');

test('the first call logs in with the wx.login code and sends the bearer token', async () => {
  const { server, wx, water } = setup();
  await water.show();
  assert.deepEqual(server.logins, ['code-1']);
  const [login, status] = wx.requests;
  assert.deepEqual([login.method, login.path, login.body], ['POST', '/api/mp/v1/login', { js_code: 'code-1' }]);
  assert.equal(login.header.Authorization, undefined);
  assert.equal(status.header.Authorization, 'Bearer token-1');
  assert.equal(wx.getStorageSync(TOKEN_KEY).token, 'token-1');
});

test('a stored live token is reused without logging in again', async () => {
  const { server, water } = setup();
  await water.show();
  await water.show();
  assert.equal(server.logins.length, 1);
});

test('an expired stored token is replaced before the call', async () => {
  const { server, wx, water } = setup();
  wx.setStorageSync(TOKEN_KEY, { token: 'old', expires_at: '2020-01-01T00:00:00+08:00' });
  await water.show();
  assert.equal(server.logins.length, 1);
  assert.ok(wx.requests.every((r) => r.header.Authorization !== 'Bearer old'));
});

test('a 401 logs in once and retries the same request once', async () => {
  const { server, wx, water, posted } = setup({ keeper: { needsGrant: false } });
  await water.show();
  server.expireTokens();
  await wx.tap(() => water.tap());
  assert.deepEqual(wx.requests.slice(2).map((r) => `${r.method} ${r.path}`), [
    'POST /api/mp/v1/water/actions',
    'POST /api/mp/v1/login',
    'POST /api/mp/v1/water/actions',
  ]);
  const [first, retry] = posted('/actions');
  assert.deepEqual(retry, first);
  assert.equal(wx.requests[4].header.Authorization, 'Bearer token-2');
  assert.equal(server.count, 1);
});

test('a second 401 stops there: no loop, and the glass stays queued', async () => {
  const { server, wx, water, last } = setup({ keeper: { needsGrant: false } });
  await water.show();
  server.refuse('/water/actions', 401, 'unauthorized');
  server.refuse('/water/actions', 401, 'unauthorized');
  await wx.tap(() => water.tap());
  assert.equal(wx.requests.length, 5); // login, status, action, login, action
  assert.equal(server.logins.length, 2);
  assert.equal(last().pendingText, '1 条待同步');
  assert.equal(last().notice, '登录没有成功，稍后自动重试');
});

test('a refused login is no verdict on the glass: it stays queued', async () => {
  const { server, wx, water } = setup({ keeper: { needsGrant: false } });
  await water.show();
  server.expireTokens();
  server.refuse('/login', 429, 'rate_limited', '登录太频繁，请稍后再试');
  await wx.tap(() => water.tap());
  assert.equal(wx.getStorageSync('keeper.pending').length, 1);
  assert.equal(server.count, 0);
});
