'use strict';
// The reminder switch posts enable/close and shows keeper's answer.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setup } = require('./support');

test('turning the switch off closes the plan and the page shows it off', async () => {
  const { water, posted, last } = setup();
  await water.show();
  await water.setEnabled(false);
  assert.deepEqual(posted('/plan'), [{ action: 'close' }]);
  assert.deepEqual([last().enabled, last().stateText, last().nextText], [false, '喝水提醒已关闭', '暂无下次提醒']);
});

test('turning the switch on enables the plan', async () => {
  const { water, posted, last } = setup({ keeper: { state: 'disabled' } });
  await water.show();
  assert.equal(last().enabled, false);
  await water.setEnabled(true);
  assert.deepEqual(posted('/plan'), [{ action: 'enable' }]);
  assert.equal(last().enabled, true);
});

test('a switch that cannot reach keeper springs back and says why', async () => {
  const { wx, water, last } = setup();
  await water.show();
  wx.failNext(1);
  await water.setEnabled(false);
  assert.equal(last().enabled, true);
  assert.equal(last().notice, '网络不通，开关没有切换，请稍后再试');
});

test('a refused switch shows keeper\'s own words', async () => {
  const { server, water, last } = setup();
  await water.show();
  server.refuse('/water/plan', 400, 'bad_request', '提醒间隔要在 30 到 240 分钟之间');
  await water.setEnabled(true);
  assert.equal(last().notice, '提醒间隔要在 30 到 240 分钟之间');
});
