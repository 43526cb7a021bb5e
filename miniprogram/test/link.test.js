'use strict';
// Linking to a WeCom member: the code from `绑定 小程序` typed on the water page.

const test = require('node:test');
const assert = require('node:assert/strict');
const { setup } = require('./support');

test('a good code links: keeper\'s status (both doors\' glasses) replaces the cache', async () => {
  const { server, water, posted, last } = setup({ keeper: { needsGrant: false } });
  server.memberCount = 3;
  await water.show();
  await water.link(' 123456 ');
  assert.deepEqual(posted('/link'), [{ code: '123456' }]);
  assert.equal(last().countText, '3 / 8 杯');
  assert.equal(last().notice, '已和企业微信绑定，两边的喝水记录合在一起了');
});

test('a code that is not six digits is never sent', async () => {
  const { water, posted, last } = setup();
  await water.show();
  await water.link('12a45');
  assert.deepEqual(posted('/link'), []);
  assert.equal(last().notice, '请输入企业微信里「绑定 小程序」给的 6 位数字');
});

for (const [status, error, message] of [
  [400, 'link_code_invalid', '绑定码不对或已过期，请在企业微信里发「绑定 小程序」重新获取。'],
  [409, 'already_linked', '这个小程序已经绑定过企业微信了。'],
  [429, 'rate_limited', '试得太多了，请一小时后再试。'],
]) {
  test(`a refused link (${error}) shows keeper's words and keeps the cache`, async () => {
    const { server, water, last } = setup();
    await water.show();
    const before = last().countText;
    server.refuse('/link', status, error, message);
    await water.link('654321');
    assert.deepEqual([last().notice, last().countText], [message, before]);
  });
}

test('a link that cannot reach keeper says the network is down', async () => {
  const { wx, water, last } = setup();
  await water.show();
  wx.failNext(1);
  await water.link('123456');
  assert.equal(last().notice, '网络不通，没有绑定上，请稍后再试');
});
