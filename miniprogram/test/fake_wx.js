'use strict';
// A fake `wx` with the behaviour the page relies on, as WeChat documents it:
//  - callbacks (success/fail/complete) always arrive later, never inside the call;
//  - wx.request calls `success` for every HTTP status (res.statusCode, res.data parsed
//    JSON) and `fail` only when no answer came back;
//  - wx.requestSubscribeMessage works only inside a tap gesture: called outside one
//    (e.g. after an await) it fails with WeChat's errMsg, and the fake records whether
//    each call was made synchronously within the tap (`wx.tap(fn)` marks the gesture);
//  - storage keeps JSON copies, so a caller never shares an object with it.
// Every call is appended to `wx.log`, so tests can assert the order of events.
// Requests go to `transport(req) -> Promise<{statusCode, data}>` (a rejection is a
// network failure): an in-memory keeper for unit tests, real HTTP for the e2e run.

const later = (fn) => setImmediate(fn);

class FakeWx {
  constructor({ transport, subscribeAnswer = 'accept', codes = [] } = {}) {
    this.transport = transport;
    this.codeQueue = [...codes]; // login codes issued by a (fake) WeChat; else code-1, code-2, ...
    this.subscribeAnswer = subscribeAnswer; // 'accept' | 'reject' | 'ban' | 'filter' | 'fail'
    this.store = new Map();
    this.log = [];
    this.requests = [];
    this.subscribeCalls = [];
    this.inTap = false;
    this.codes = 0;
    this.netFaults = []; // queued: 'before' (never reaches keeper) | 'after' (answer lost)
  }

  /** Run `fn` as WeChat runs a bindtap handler: the gesture lasts for its synchronous part. */
  tap(fn) {
    this.inTap = true;
    try {
      return fn();
    } finally {
      this.inTap = false;
    }
  }

  /** The next `n` requests fail: 'before' they reach the server, or 'after' (answer lost). */
  failNext(n, when = 'before') {
    for (let i = 0; i < n; i += 1) this.netFaults.push(when);
  }

  getStorageSync(key) {
    return this.store.has(key) ? JSON.parse(this.store.get(key)) : '';
  }

  setStorageSync(key, value) {
    this.log.push(`setStorage ${key}`);
    this.store.set(key, JSON.stringify(value));
  }

  removeStorageSync(key) {
    this.log.push(`removeStorage ${key}`);
    this.store.delete(key);
  }

  login({ success, complete }) {
    this.log.push('login');
    this.codes += 1;
    const code = this.codeQueue.length > 0 ? this.codeQueue.shift() : `code-${this.codes}`;
    later(() => {
      if (success) success({ errMsg: 'login:ok', code });
      if (complete) complete();
    });
  }

  request({ url, method = 'GET', data, header = {}, success, fail, complete }) {
    const path = new URL(url).pathname;
    const req = { url, path, method, body: data === undefined ? undefined : JSON.parse(JSON.stringify(data)), header: { ...header } };
    this.log.push(`request ${method} ${path}`);
    this.requests.push(req);
    const fault = this.netFaults.shift();
    const done = (fn, arg) => later(() => {
      if (fn) fn(arg);
      if (complete) complete();
    });
    if (fault === 'before') {
      done(fail, { errMsg: 'request:fail net::ERR_INTERNET_DISCONNECTED' });
      return;
    }
    this.transport(req).then(
      (res) => (fault === 'after'
        ? done(fail, { errMsg: 'request:fail timeout' })
        : done(success, { statusCode: res.statusCode, data: res.data, header: {} })),
      () => done(fail, { errMsg: 'request:fail net::ERR_CONNECTION_REFUSED' }),
    );
  }

  requestSubscribeMessage({ tmplIds, success, fail, complete }) {
    this.log.push('requestSubscribeMessage');
    const call = { tmplIds: [...tmplIds], synchronous: this.inTap };
    this.subscribeCalls.push(call);
    later(() => {
      if (!call.synchronous) {
        if (fail) fail({ errMsg: 'requestSubscribeMessage:fail can only be invoked by user TAP gesture.', errCode: 10003 });
      } else if (this.subscribeAnswer === 'fail') {
        if (fail) fail({ errMsg: 'requestSubscribeMessage:fail main switch is off', errCode: 20004 });
      } else {
        const res = { errMsg: 'requestSubscribeMessage:ok' };
        for (const id of tmplIds) res[id] = this.subscribeAnswer;
        if (success) success(res);
      }
      if (complete) complete();
    });
  }
}

module.exports = { FakeWx };
