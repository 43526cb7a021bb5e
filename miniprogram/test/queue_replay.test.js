'use strict';
// Network failures, replay with the same ids in order, and the items that are dropped.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setup } = require('./support');
const { QUEUE_KEY } = require('../lib/queue');

test('a glass tapped offline stays queued and is replayed on the next show with the same ids', async () => {
  const { server, wx, water, posted, last } = setup();
  await water.show();
  wx.failNext(1); // the grant post never reaches keeper; the action waits behind it
  await wx.tap(() => water.tap());
  const queued = wx.getStorageSync(QUEUE_KEY);
  assert.deepEqual(queued.map((i) => i.kind), ['grant', 'action']);
  assert.equal(last().pendingText, '1 条待同步');
  assert.equal(last().countText, '1 / 8 杯');
  assert.equal(server.grants.size, 0);

  await water.show();
  const grants = posted('/grants');
  assert.equal(grants.length, 2);
  assert.deepEqual(grants[1], grants[0]); // the very same body, ids included
  assert.equal(posted('/actions')[0].action_id, queued[1].id);
  assert.equal(posted('/actions')[0].grant_request_id, queued[0].id);
  assert.deepEqual(wx.getStorageSync(QUEUE_KEY), []);
  assert.equal(last().pendingText, '');
  assert.deepEqual([server.grants.size, server.count], [1, 1]);
});

test('an answer lost on the way back is replayed with the same action_id and counts once', async () => {
  const { server, wx, water, posted, last } = setup({ keeper: { needsGrant: false } });
  await water.show();
  wx.failNext(1, 'after'); // keeper records the glass, the phone never hears back
  await wx.tap(() => water.tap());
  assert.equal(server.count, 1);
  assert.equal(last().pendingText, '1 条待同步');
  await water.show();
  const [first, replay] = posted('/actions');
  assert.deepEqual(replay, first);
  assert.equal(server.count, 1);
  assert.equal(last().countText, '1 / 8 杯');
});

test('glasses tapped offline are replayed in tap order, each with its own id', async () => {
  const { server, wx, water, posted } = setup({ keeper: { needsGrant: false } });
  await water.show();
  wx.failNext(3);
  for (let i = 0; i < 3; i += 1) await wx.tap(() => water.tap());
  const tapped = wx.getStorageSync(QUEUE_KEY).map((i) => i.id);
  assert.equal(new Set(tapped).size, 3);
  assert.deepEqual(wx.getStorageSync(QUEUE_KEY).map((i) => i.body.current_count), [1, 2, 3]);
  await water.show();
  assert.deepEqual(posted('/actions').slice(3).map((a) => a.action_id), tapped);
  assert.equal(server.count, 3);
});

test('two quick taps while the first is still being sent go out one at a time, in order', async () => {
  const { server, wx, water, posted } = setup({ keeper: { needsGrant: false } });
  await water.show();
  const first = wx.tap(() => water.tap());
  const second = wx.tap(() => water.tap());
  await Promise.all([first, second]);
  const sent = posted('/actions');
  assert.deepEqual(sent.map((a) => a.current_count), [1, 2]);
  assert.equal(new Set(sent.map((a) => a.action_id)).size, 2);
  assert.equal(server.count, 2);
});

test('a 4xx drops the item, says so, and the next item still goes', async () => {
  const { server, wx, water, last } = setup({ keeper: { needsGrant: false } });
  await water.show();
  wx.failNext(2);
  await wx.tap(() => water.tap());
  await wx.tap(() => water.tap());
  server.refuse('/water/actions', 422, 'occurred_at_out_of_range', '这一杯的时间不对，没有记上');
  await water.flush();
  assert.deepEqual(wx.getStorageSync(QUEUE_KEY), []);
  assert.equal(server.count, 1);
  assert.equal(last().notice, '有一条没能记上：这一杯的时间不对，没有记上');
  await water.show();
  assert.equal(last().notice, ''); // said once, not forever
});

test('a 5xx keeps the item for later', async () => {
  const { server, wx, water, last } = setup({ keeper: { needsGrant: false } });
  await water.show();
  server.refuse('/water/actions', 502, 'wechat_unavailable');
  await wx.tap(() => water.tap());
  assert.equal(wx.getStorageSync(QUEUE_KEY).length, 1);
  assert.equal(last().notice, '服务暂时不可用，已存在手机上，稍后自动同步');
  await water.flush();
  assert.equal(server.count, 1);
  assert.equal(last().notice, '');
});

test('a grant left open by an earlier run of the app lets its glass go as skipped', async () => {
  const { server, wx, water, posted } = setup({ session: 'run-2' });
  wx.setStorageSync(QUEUE_KEY, [
    { kind: 'grant', id: 'g-1', session: 'run-1', body: { request_id: 'g-1', template_id: 'tmpl-water', result: null } },
    { kind: 'action', id: 'a-1', session: 'run-1', day: '2026-11-30', body: { action_id: 'a-1', grant_request_id: 'g-1', subscription_status: null, occurred_at: '2026-11-30T09:00:00+08:00', current_count: 1, daily_goal: 8 } },
  ]);
  await water.show();
  assert.deepEqual(posted('/grants'), []);
  assert.deepEqual(posted('/actions').map((a) => [a.action_id, a.grant_request_id, a.subscription_status]), [['a-1', null, 'skipped']]);
  assert.equal(server.count, 1);
});

test('the next tap sends the glasses still waiting first, then its own', async () => {
  const { server, wx, water, posted } = setup({ keeper: { needsGrant: false } });
  await water.show();
  wx.failNext(1);
  await wx.tap(() => water.tap());
  const waiting = wx.getStorageSync(QUEUE_KEY)[0].id;
  await wx.tap(() => water.tap());
  const sent = posted('/actions').map((a) => a.action_id);
  assert.equal(sent.length, 3); // the failed try, its replay, then the new glass
  assert.deepEqual(sent.slice(0, 2), [waiting, waiting]);
  assert.notEqual(sent[2], waiting);
  assert.deepEqual(wx.getStorageSync(QUEUE_KEY), []);
  assert.equal(server.count, 2);
});

test('a grant keeper refuses leaves its glass as skipped, never carrying the accept', async () => {
  const { server, wx, water, posted } = setup();
  await water.show();
  server.refuse('/water/grants', 400, 'bad_request', '订阅模板已更换');
  await wx.tap(() => water.tap());
  const [action] = posted('/actions');
  assert.deepEqual([action.grant_request_id, action.subscription_status], [null, 'skipped']);
  assert.equal(server.count, 1);
  assert.deepEqual(wx.getStorageSync(QUEUE_KEY), []);
});
