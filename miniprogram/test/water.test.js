'use strict';
// The water page's client rules (lib/water.js) against a fake wx and a fake keeper.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setup } = require('./support');
const { QUEUE_KEY } = require('../lib/queue');
const { CACHE_KEY } = require('../lib/water');

test('show fetches the status, caches it and shows it in plain Chinese', async () => {
  const { wx, water, last } = setup();
  await water.show();
  assert.equal(wx.getStorageSync(CACHE_KEY).state, 'scheduled');
  assert.deepEqual(
    { count: last().countText, state: last().stateText, next: last().nextText, on: last().enabled, pending: last().pendingText },
    { count: '0 / 8 杯', state: '喝水提醒已开启', next: '下次提醒 10:30', on: true, pending: '' },
  );
});

test('the subscribe dialog is requested synchronously inside the tap, before any await', async () => {
  const { wx, water } = setup();
  await water.show();
  const before = wx.log.length;
  const done = wx.tap(() => water.tap());
  // Nothing has been awaited yet (not even a microtask): the call must already be there.
  assert.equal(wx.subscribeCalls.length, 1);
  assert.equal(wx.subscribeCalls[0].synchronous, true);
  assert.deepEqual(wx.subscribeCalls[0].tmplIds, ['tmpl-water']);
  await done;
  assert.deepEqual(wx.log.slice(before).filter((e) => !e.startsWith('setStorage keeper.status')), [
    `setStorage ${QUEUE_KEY}`, // the glass is written locally first
    'requestSubscribeMessage',
    `setStorage ${QUEUE_KEY}`, // the dialog's answer recorded on the queued items
    'request POST /api/mp/v1/water/grants',
    `setStorage ${QUEUE_KEY}`,
    'request POST /api/mp/v1/water/actions',
    `setStorage ${QUEUE_KEY}`,
  ]);
});

test('the grant is posted first and the action names it with the answer', async () => {
  const { server, water, wx, posted } = setup();
  await water.show();
  await wx.tap(() => water.tap());
  const [grant] = posted('/grants');
  const [action] = posted('/actions');
  assert.deepEqual(grant, { request_id: grant.request_id, template_id: 'tmpl-water', result: 'accept' });
  assert.equal(action.grant_request_id, grant.request_id);
  assert.equal(action.subscription_status, 'accept');
  assert.notEqual(action.action_id, grant.request_id);
  assert.equal(action.current_count, 1);
  assert.equal(action.daily_goal, 8);
  assert.match(action.occurred_at, /^2026-11-30T09:15:00[+-]\d\d:\d\d$/);
  assert.equal(server.grants.size, 1);
  assert.equal(server.count, 1);
});

test('no subscribe dialog when the cached status says no grant is needed', async () => {
  const { wx, water, posted } = setup({ keeper: { needsGrant: false } });
  await water.show();
  await wx.tap(() => water.tap());
  assert.equal(wx.subscribeCalls.length, 0);
  assert.deepEqual(posted('/grants'), []);
  const [action] = posted('/actions');
  assert.equal(action.grant_request_id, null);
  assert.equal(action.subscription_status, 'skipped');
});

test('no subscribe dialog before any status is known, and the glass still counts', async () => {
  const { wx, water, last } = setup();
  wx.failNext(2); // the first show cannot reach keeper (login fails on the network)
  await water.show();
  await wx.tap(() => water.tap());
  assert.equal(wx.subscribeCalls.length, 0);
  assert.deepEqual(
    { count: last().countText, pending: last().pendingText, notice: last().notice },
    { count: '1 / - 杯', pending: '1 条待同步', notice: '网络不通，已存在手机上，稍后自动同步' },
  );
});

test('the status answer of the last successful post replaces the cache', async () => {
  const { wx, water, last } = setup();
  await water.show();
  assert.equal(wx.getStorageSync(CACHE_KEY).needs_grant, true);
  await wx.tap(() => water.tap());
  const cache = wx.getStorageSync(CACHE_KEY);
  assert.equal(cache.today_count, 1);
  assert.equal(cache.needs_grant, false);
  assert.equal(last().countText, '1 / 8 杯');
  assert.equal(last().grantText, '');
});

test('a rejected dialog is posted as reject and the cached plan pauses', async () => {
  const { wx, water, posted, last } = setup({ subscribeAnswer: 'reject' });
  await water.show();
  await wx.tap(() => water.tap());
  assert.equal(posted('/grants')[0].result, 'reject');
  assert.equal(posted('/actions')[0].subscription_status, 'reject');
  assert.equal(last().stateText, '提醒已暂停，点 +1 或打开开关可继续');
});

test('a dialog that fails without an answer posts no grant and the action as skipped', async () => {
  const { wx, water, posted } = setup({ subscribeAnswer: 'fail' });
  await water.show();
  await wx.tap(() => water.tap());
  assert.deepEqual(posted('/grants'), []);
  assert.equal(posted('/actions')[0].grant_request_id, null);
  assert.equal(posted('/actions')[0].subscription_status, 'skipped');
});
