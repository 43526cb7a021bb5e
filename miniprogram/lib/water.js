'use strict';
// The water page's logic, free of the page object so it runs under node with a fake wx.
//
// The design's client rules, in the order they happen:
//  - on show: replay the pending queue, then fetch the status and cache it;
//  - on tap: write the glass locally first (queue + count), then, still synchronously
//    inside the tap handler, call wx.requestSubscribeMessage when the cached status
//    says needs_grant (WeChat only shows the dialog from a tap gesture; after an await
//    it is refused), then post the grant answer and the action;
//  - a network failure keeps items queued, replayed later with the same ids in order;
//    a 4xx (other than 401, which the api client handles) drops the item and says so;
//  - the status answer of the last successful post replaces the cache.

const { createApi } = require('./api');
const { createQueue, isUnsettled } = require('./queue');
const { newId } = require('./ids');
const { localDay, isoWithOffset } = require('./time');
const { view, todayCount } = require('./view');
const texts = require('./texts');

const CACHE_KEY = 'keeper.status';
const DEFAULT_GOAL = 8; // keeper's default, used only before the first status arrives
const ANSWERS = new Set(['accept', 'reject', 'ban', 'filter']);
const STOP_NOTICE = { network: texts.offline, server: texts.serverDown, auth: texts.loginFailed };

/**
 * @param {object} options
 * @param {object} options.wx the WeChat API object (or a fake)
 * @param {string} options.origin keeper's origin
 * @param {() => Date} options.now the clock
 * @param {(view: object) => void} options.render receives what the page shows
 * @param {string} [options.session] this app run (grants left open by another run are abandoned)
 */
function createWater({ wx, origin, now, render, session = newId() }) {
  const api = createApi({ wx, origin, now });
  const queue = createQueue(wx);
  const ids = () => newId(() => now().getTime());
  let notice = '';
  let flushing = null;
  let again = false;

  const cached = () => wx.getStorageSync(CACHE_KEY) || null;
  const remember = (status) => wx.setStorageSync(CACHE_KEY, { ...status, day: localDay(now()) });
  const paint = () => render(view({ status: cached(), pending: queue.load(), notice, today: localDay(now()) }));

  async function drain() {
    for (;;) {
      const head = queue.load()[0];
      if (!head || isUnsettled(head)) return;
      const post = head.kind === 'grant' ? api.postGrant : api.postAction;
      const answer = await post(head.body);
      if (answer.kind === 'ok') {
        queue.remove(head.id);
        remember(answer.data);
        if (Object.values(STOP_NOTICE).includes(notice)) notice = '';
      } else if (answer.kind === 'rejected') {
        // It would be refused the same way forever. A refused grant is no grant: its
        // action goes as `skipped` naming none, never carrying the accept on its own.
        if (head.kind === 'grant') queue.settle(head.id, null);
        else queue.remove(head.id);
        notice = texts.dropped(answer.data && answer.data.message);
      } else {
        notice = STOP_NOTICE[answer.kind];
        paint();
        return;
      }
      paint();
    }
  }

  /** Send what is queued, one at a time, in order; one drain at a time. */
  function flush() {
    if (flushing) {
      again = true;
      return flushing;
    }
    flushing = (async () => {
      try {
        do {
          again = false;
          await drain();
        } while (again);
      } finally {
        flushing = null;
      }
    })();
    return flushing;
  }

  async function show() {
    notice = ''; // a new look at the page: only what happens now is worth saying
    queue.settleAbandoned(session);
    paint();
    await flush();
    const answer = await api.status();
    if (answer.kind === 'ok') remember(answer.data);
    else if (!notice) notice = STOP_NOTICE[answer.kind] || texts.refused(answer.data && answer.data.message);
    paint();
  }

  /** The +1 tap. Synchronous up to wx.requestSubscribeMessage; the promise settles when
   * this tap's posts are done (or stopped by a failure). */
  function tap() {
    const status = cached();
    const at = now();
    const ask = Boolean(status && status.needs_grant && status.template_id);
    const requestId = ask ? ids() : null;
    const actionId = ids();
    const action = {
      kind: 'action', id: actionId, session, day: localDay(at),
      body: {
        action_id: actionId, grant_request_id: requestId, subscription_status: ask ? null : 'skipped',
        occurred_at: isoWithOffset(at),
        current_count: todayCount(status, queue.load(), localDay(at)) + 1,
        daily_goal: status ? status.daily_goal : DEFAULT_GOAL,
      },
    };
    const grant = ask && { kind: 'grant', id: requestId, session,
      body: { request_id: requestId, template_id: status.template_id, result: null } };
    queue.push(...(grant ? [grant, action] : [action]));
    paint();
    if (!ask) return flush();
    return new Promise((resolve) => {
      let answer = null;
      wx.requestSubscribeMessage({
        tmplIds: [status.template_id],
        success: (res) => { answer = ANSWERS.has(res[status.template_id]) ? res[status.template_id] : null; },
        complete: () => {
          queue.settle(requestId, answer);
          flush().then(resolve);
        },
      });
    });
  }

  /** The reminder switch: enable or close the plan; the switch shows keeper's answer. */
  async function setEnabled(on) {
    const answer = await api.setPlan({ action: on ? 'enable' : 'close' });
    if (answer.kind === 'ok') {
      remember(answer.data);
      notice = '';
    } else {
      notice = answer.kind === 'rejected' ? texts.refused(answer.data && answer.data.message) : texts.switchFailed;
    }
    paint();
  }

  /** Link to a WeCom member with the 6-digit code `绑定 小程序` showed in chat; keeper's
   * answer (the member's status) replaces the cache, a refusal shows keeper's words. */
  async function link(code) {
    const digits = String(code || '').trim();
    if (!/^\d{6}$/.test(digits)) {
      notice = texts.linkCodeHint;
      paint();
      return;
    }
    await flush(); // glasses first, so they move to the member with the rest
    const answer = await api.link(digits);
    if (answer.kind === 'ok') {
      remember(answer.data);
      notice = texts.linked;
    } else if (answer.kind === 'rejected') {
      notice = texts.refused(answer.data && answer.data.message);
    } else {
      notice = texts.linkFailed; // nothing kept for later: the code lives ten minutes
    }
    paint();
  }

  return { show, tap, setEnabled, link, flush, paint };
}

module.exports = { createWater, CACHE_KEY };
