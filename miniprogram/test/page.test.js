'use strict';
// The page file itself (pages/water/water.js) under a fake Page/getApp/wx: its handlers
// wire the logic so the subscribe dialog still comes inside the tap.

const test = require('node:test');
const assert = require('node:assert/strict');
const { FakeWx } = require('./fake_wx');
const { FakeKeeper } = require('./fake_keeper');

function loadPage(wx) {
  let definition = null;
  global.wx = wx;
  global.getApp = () => ({ globalData: { origin: 'https://keeper.test' } });
  global.Page = (def) => { definition = def; };
  delete require.cache[require.resolve('../pages/water/water')];
  require('../pages/water/water');
  const page = { ...definition, data: { ...definition.data } };
  page.setData = (patch) => Object.assign(page.data, patch);
  return page;
}

test('the page shows keeper\'s status and its tap asks for the grant synchronously', async () => {
  const server = new FakeKeeper();
  const wx = new FakeWx({ transport: server.transport });
  const page = loadPage(wx);
  page.onLoad();
  await page.onShow();
  assert.equal(page.data.stateText, '喝水提醒已开启');
  const tapped = wx.tap(() => page.onTap());
  assert.deepEqual(wx.subscribeCalls.map((c) => c.synchronous), [true]);
  assert.equal(page.data.countText, '1 / 8 杯'); // written locally before any answer
  assert.equal(page.data.pendingText, '1 条待同步');
  await tapped;
  assert.equal(server.count, 1);
  assert.equal(page.data.pendingText, '');
});

test('the page switch closes the plan', async () => {
  const server = new FakeKeeper();
  const wx = new FakeWx({ transport: server.transport });
  const page = loadPage(wx);
  page.onLoad();
  await page.onShow();
  await page.onSwitch({ detail: { value: false } });
  assert.deepEqual([page.data.enabled, server.state], [false, 'disabled']);
});

test('the page links with the code typed in its input', async () => {
  const server = new FakeKeeper();
  const wx = new FakeWx({ transport: server.transport });
  const page = loadPage(wx);
  page.onLoad();
  await page.onShow();
  page.onCodeInput({ detail: { value: '246810' } });
  await page.onLink();
  assert.equal(server.linked, '246810');
  assert.equal(page.data.notice, '已和企业微信绑定，两边的喝水记录合在一起了');
});
