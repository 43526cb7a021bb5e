'use strict';
// What the page shows, from the cached status and the pending queue (pure).

const texts = require('./texts');

/** "14:30" for today, "12月1日 14:30" otherwise; read off the server's ISO string so
 * the time is the one keeper means, in the user's own offset. */
function whenText(iso, today) {
  const day = iso.slice(0, 10);
  const hhmm = iso.slice(11, 16);
  if (day === today) return hhmm;
  return `${Number(iso.slice(5, 7))}月${Number(iso.slice(8, 10))}日 ${hhmm}`;
}

/** Glasses today: keeper's count when the cache is from today, plus glasses not yet sent. */
function todayCount(status, pending, today) {
  const base = status && status.day === today ? status.today_count : 0;
  const queued = pending.filter((item) => item.kind === 'action' && item.day === today);
  return base + queued.length;
}

/** What the user thinks of as waiting: glasses, plus any grant answer whose glass is gone. */
function waitingCount(pending) {
  const named = new Set(pending.filter((i) => i.kind === 'action').map((i) => i.body.grant_request_id));
  return pending.filter((i) => i.kind === 'action' || !named.has(i.id)).length;
}

/**
 * @param {object} input {status: cached status or null, pending: queue items,
 *   notice: string, today: YYYY-MM-DD}
 */
function view({ status, pending, notice, today }) {
  const goal = status ? status.daily_goal : null;
  let stateText = texts.loading;
  if (status) stateText = texts.STATE[status.state] || texts.unknownState;
  let nextText = '';
  if (status) nextText = status.next_due_at ? texts.next(whenText(status.next_due_at, today)) : texts.noNext;
  const waiting = waitingCount(pending);
  return {
    countText: texts.count(todayCount(status, pending, today), goal === null ? '-' : goal),
    stateText,
    nextText,
    grantText: status && status.needs_grant && status.state !== 'disabled' ? texts.needsGrant : '',
    enabled: Boolean(status) && status.state !== 'disabled',
    pendingText: waiting > 0 ? texts.pending(waiting) : '',
    notice: notice || '',
  };
}

module.exports = { view, todayCount, whenText, waitingCount };
