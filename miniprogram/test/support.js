'use strict';
// Shared set-up for the page-logic tests: a fake keeper behind a fake wx, one clock.

const { FakeWx } = require('./fake_wx');
const { FakeKeeper } = require('./fake_keeper');
const { createWater } = require('../lib/water');

const ORIGIN = 'https://keeper.test';
const NOW = new Date(2026, 10, 30, 9, 15, 0); // local time: the phone's day is 2026-11-30

function setup({ keeper = {}, subscribeAnswer = 'accept', session = 'run-1', now = () => NOW } = {}) {
  const server = new FakeKeeper(keeper);
  const wx = new FakeWx({ transport: server.transport, subscribeAnswer });
  const views = [];
  const water = createWater({ wx, origin: ORIGIN, now, render: (v) => views.push(v), session });
  const last = () => views[views.length - 1];
  const posted = (suffix) => wx.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix)).map((r) => r.body);
  return { server, wx, water, views, last, posted };
}

module.exports = { setup, ORIGIN, NOW };
