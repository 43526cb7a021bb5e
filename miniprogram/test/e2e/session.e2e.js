'use strict';
// A scripted mini-program session against a real `keeper serve`, driven through the
// page logic (lib/water.js) with the fake wx whose `request` does real HTTP.
// Run by tests/acceptance/test_miniprogram_e2e.py, which starts keeper and passes its
// origin in KEEPER_MP_E2E_ORIGIN and the wx.login codes the fake WeChat issued in
// KEEPER_MP_E2E_CODES (comma-separated); prints one JSON summary line on stdout.
//
// In two halves: after the replay it prints `{"phase": "replayed", ...}` and waits for a
// line on stdin, while the test lets keeper's tick send the reminder through the fake
// WeChat; then the page is shown again, one more glass is tapped, and the phone links
// to a WeCom member with the code in KEEPER_MP_E2E_LINK_CODE (twice).
//
// `node --test miniprogram/test/` also loads this file (node 20 runs every .js under a
// test/ folder): without KEEPER_MP_E2E_ORIGIN it only reports itself skipped.

const { FakeWx } = require('../fake_wx');
const { createWater } = require('../../lib/water');
const { QUEUE_KEY } = require('../../lib/queue');

const ORIGIN = process.env.KEEPER_MP_E2E_ORIGIN;
const CODES = (process.env.KEEPER_MP_E2E_CODES || '').split(',').filter(Boolean);
// The 6-digit code `绑定 小程序` showed a WeCom member in chat (made by the test).
const LINK_CODE = process.env.KEEPER_MP_E2E_LINK_CODE || '';

/** wx.request's transport over real loopback HTTP (node's fetch). */
async function http(req) {
  const res = await fetch(req.url, {
    method: req.method,
    headers: req.header,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  const text = await res.text();
  let data = text;
  try {
    data = JSON.parse(text);
  } catch {
    // wx.request hands over text that is not JSON as it is
  }
  return { statusCode: res.status, data };
}

/** Say where the session stands and wait for the test's go-ahead (one line on stdin). */
function pause(phase, details) {
  process.stdout.write(`${JSON.stringify({ phase, ...details })}\n`);
  return new Promise((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause();
      resolve();
    });
  });
}

async function session() {
  const wx = new FakeWx({ transport: http, subscribeAnswer: 'accept', codes: CODES });
  let page = null;
  const water = createWater({ wx, origin: ORIGIN, now: () => new Date(), render: (v) => { page = v; } });
  const steps = {};
  const snap = () => ({ view: page, status: wx.getStorageSync('keeper.status'), pending: wx.getStorageSync(QUEUE_KEY).length });

  await water.show(); // login + status
  steps.shown = snap();
  await water.setEnabled(true);
  steps.enabled = snap();
  await wx.tap(() => water.tap()); // needs_grant: the dialog, accepted, then the glass
  steps.accepted = snap();
  wx.failNext(1, 'after'); // keeper records this glass, the answer is lost
  await wx.tap(() => water.tap());
  wx.failNext(1, 'before'); // the replay of it never leaves the phone, the next glass waits
  await wx.tap(() => water.tap());
  steps.offline = snap();
  await water.show(); // back online: replay in order, with the same ids
  steps.replayed = snap();
  await pause('replayed', { next_due_at: steps.replayed.status.next_due_at });
  await water.show(); // the reminder went out: keeper waits for a glass, and a new grant
  steps.reminded = snap();
  await wx.tap(() => water.tap());
  steps.after_reminder = snap();
  await water.link(LINK_CODE); // typed into the page: both doors' glasses in one 今天
  steps.linked = snap();
  await water.link(LINK_CODE); // again: keeper says it is linked already
  steps.linked_again = snap();

  const posts = (suffix) => wx.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix));
  return {
    steps,
    logins: posts('/login').length,
    subscribe_calls: wx.subscribeCalls,
    grant_posts: posts('/grants').map((r) => r.body),
    action_posts: posts('/actions').map((r) => r.body),
  };
}

if (!ORIGIN) {
  require('node:test').test('a scripted session against keeper serve', {
    skip: 'run by tests/acceptance/test_miniprogram_e2e.py, which sets KEEPER_MP_E2E_ORIGIN',
  }, () => {});
} else {
  session().then(
    (summary) => process.stdout.write(`${JSON.stringify(summary)}\n`),
    (error) => {
      process.stderr.write(`${error && error.stack}\n`);
      process.exitCode = 1;
    },
  );
}
