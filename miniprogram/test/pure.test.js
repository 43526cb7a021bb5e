'use strict';
// The pure pieces: ids, the view model, the queue's settle rules, and the fake's own
// tap-gesture check (a negative control for the synchronous-call test).

const test = require('node:test');
const assert = require('node:assert/strict');
const { newId } = require('../lib/ids');
const { view, whenText, waitingCount } = require('../lib/view');
const { settle, settleAbandoned } = require('../lib/queue');
const { isoWithOffset } = require('../lib/time');
const { FakeWx } = require('./fake_wx');

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('ids are version-4-shaped UUIDs led by the clock', () => {
  const id = newId(() => 0x18f00000000, () => 0.5);
  assert.match(id, UUID4);
  assert.ok(id.startsWith('018f0000-0000-4'));
});

test('ids made in the same millisecond still differ', () => {
  const ids = new Set();
  for (let i = 0; i < 10000; i += 1) ids.add(newId(() => 1764464100000));
  assert.equal(ids.size, 10000);
  for (const id of ids) assert.match(id, UUID4);
});

test('occurred_at carries the local offset', () => {
  assert.match(isoWithOffset(new Date(2026, 0, 2, 3, 4, 5)), /^2026-01-02T03:04:05[+-]\d\d:\d\d$/);
});

test('the next reminder shows a time today and a date otherwise', () => {
  assert.equal(whenText('2026-11-30T14:30:00+08:00', '2026-11-30'), '14:30');
  assert.equal(whenText('2026-12-01T08:00:00+08:00', '2026-11-30'), '12月1日 08:00');
});

const status = { state: 'paused', needs_grant: true, next_due_at: null, today_count: 3, daily_goal: 8, day: '2026-11-30' };
const action = (id, day = '2026-11-30', grant = null) => ({ kind: 'action', id, day, body: { grant_request_id: grant } });
const grant = (id, result = null) => ({ kind: 'grant', id, session: 's1', body: { request_id: id, result } });

test('the count is keeper\'s plus the glasses waiting, and yesterday\'s cache counts nothing', () => {
  const page = view({ status, pending: [action('a'), action('b')], notice: '', today: '2026-11-30' });
  assert.equal(page.countText, '5 / 8 杯');
  assert.equal(page.pendingText, '2 条待同步');
  const nextDay = view({ status, pending: [], notice: '', today: '2026-12-01' });
  assert.equal(nextDay.countText, '0 / 8 杯');
});

test('each plan state reads as plain Chinese', () => {
  const words = ['disabled', 'scheduled', 'sending', 'awaiting_checkin', 'paused'].map(
    (state) => view({ status: { ...status, state }, pending: [], notice: '', today: '2026-11-30' }).stateText,
  );
  assert.deepEqual(words, ['喝水提醒已关闭', '喝水提醒已开启', '正在发送提醒', '提醒已发出，喝完点一下', '提醒已暂停，点 +1 或打开开关可继续']);
});

test('a grant waiting with its glass counts as one thing to sync', () => {
  assert.equal(waitingCount([grant('g'), action('a', '2026-11-30', 'g')]), 1);
  assert.equal(waitingCount([grant('g')]), 1);
});

test('settling a grant fills in its action; a failed dialog drops the grant', () => {
  const items = [grant('g'), action('a', '2026-11-30', 'g')];
  assert.deepEqual(settle(items, 'g', 'accept').map((i) => i.body.result || i.body.subscription_status), ['accept', 'accept']);
  const failed = settle(items, 'g', null);
  assert.deepEqual(failed.map((i) => [i.kind, i.body.grant_request_id, i.body.subscription_status]), [['action', null, 'skipped']]);
});

test('only grants left open by another run are abandoned', () => {
  const items = [grant('g'), action('a', '2026-11-30', 'g')];
  assert.deepEqual(settleAbandoned(items, 's1'), items);
  assert.equal(settleAbandoned(items, 's2').length, 1);
});

test('the fake refuses a subscribe request made after an await, as WeChat does', async () => {
  const wx = new FakeWx({ transport: () => Promise.resolve({ statusCode: 200, data: {} }) });
  const outcome = await new Promise((resolve) => {
    wx.tap(async () => {
      await Promise.resolve();
      wx.requestSubscribeMessage({ tmplIds: ['t'], success: () => resolve('ok'), fail: (e) => resolve(e.errMsg) });
    });
  });
  assert.equal(wx.subscribeCalls[0].synchronous, false);
  assert.match(outcome, /TAP gesture/);
});
