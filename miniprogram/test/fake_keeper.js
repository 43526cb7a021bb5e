'use strict';
// An in-memory keeper speaking the mini-program contract, for the unit tests: logins,
// the status object, grants unique on request_id, actions unique on action_id (a
// replay gets the first answer and changes nothing). `transport` plugs into FakeWx.
// Tests steer it with `expireTokens()` (the next authorised call gets a 401) and
// `refuse(path, status, error)` (that path answers this error once).

class FakeKeeper {
  constructor({ templateId = 'tmpl-water', state = 'scheduled', needsGrant = true } = {}) {
    this.templateId = templateId;
    this.state = state;
    this.needsGrant = needsGrant;
    this.count = 0;
    this.goal = 8;
    this.grants = new Map();
    this.actions = new Map();
    this.tokens = new Set();
    this.logins = [];
    this.refusals = [];
    this.transport = (req) => Promise.resolve(this.handle(req));
  }

  expireTokens() {
    this.tokens.clear();
  }

  refuse(path, statusCode, error, message = '请求无效') {
    this.refusals.push({ path, statusCode, data: { error, message } });
  }

  status() {
    return {
      state: this.state, needs_grant: this.needsGrant, next_due_at: this.state === 'scheduled' ? '2026-11-30T10:30:00+08:00' : null,
      today_count: this.count, daily_goal: this.goal, interval_minutes: 60, wake: '08:00', sleep: '22:00', template_id: this.templateId,
    };
  }

  handle(req) {
    const path = req.path.replace('/api/mp/v1', '');
    const refusal = this.refusals.findIndex((r) => r.path === path);
    if (refusal >= 0) return this.refusals.splice(refusal, 1)[0];
    if (path === '/login') return this.login(req.body);
    const token = (req.header.Authorization || '').replace('Bearer ', '');
    if (!this.tokens.has(token)) return { statusCode: 401, data: { error: 'unauthorized', message: '请重新登录' } };
    const route = { 'GET /water': () => this.status(), 'POST /water/grants': () => this.grant(req.body),
      'POST /water/actions': () => this.action(req.body), 'POST /water/plan': () => this.plan(req.body),
      'POST /link': () => this.link(req.body) }[`${req.method} ${path}`];
    return { statusCode: 200, data: route() };
  }

  login(body) {
    this.logins.push(body.js_code);
    const token = `token-${this.logins.length}`;
    this.tokens.add(token);
    return { statusCode: 200, data: { token, expires_at: '2099-01-01T00:00:00+08:00' } };
  }

  grant(body) {
    if (!this.grants.has(body.request_id)) {
      this.grants.set(body.request_id, body);
      if (body.result === 'accept') this.needsGrant = false;
      if (body.result === 'reject' || body.result === 'ban') this.state = 'paused';
    }
    return this.status();
  }

  action(body) {
    if (!this.actions.has(body.action_id)) {
      this.count += 1;
      this.actions.set(body.action_id, { body, answer: this.status() });
    }
    return this.actions.get(body.action_id).answer;
  }

  /** The member's status after a link: their chat glasses add to this phone's. */
  link(body) {
    this.linked = body.code;
    this.count += this.memberCount || 0;
    return this.status();
  }

  plan(body) {
    this.state = body.action === 'close' ? 'disabled' : 'scheduled';
    return this.status();
  }
}

module.exports = { FakeKeeper };
