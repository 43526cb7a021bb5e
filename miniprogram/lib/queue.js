'use strict';
// The pending queue: glasses and grant answers not yet acknowledged by keeper, kept in
// wx storage so a closed app or a dead network loses nothing. Items are replayed in
// order with their original ids (the server's idempotency keys), a grant always
// before the action that names it. The functions on arrays are pure; `createQueue`
// binds them to storage.

const QUEUE_KEY = 'keeper.pending';

/** A grant whose answer has not come back yet (the subscribe dialog is open). */
function isUnsettled(item) {
  return item.kind === 'grant' && item.body.result === null;
}

/**
 * Record the subscribe dialog's answer on the grant and on its action. `result` null
 * means the dialog failed without an answer: nothing was granted, so the grant is
 * dropped and the action goes as `skipped` with no grant named.
 */
function settle(items, requestId, result) {
  const out = [];
  for (const item of items) {
    if (item.kind === 'grant' && item.body.request_id === requestId) {
      if (result !== null) out.push({ ...item, body: { ...item.body, result } });
    } else if (item.kind === 'action' && item.body.grant_request_id === requestId) {
      const body = result === null
        ? { ...item.body, grant_request_id: null, subscription_status: 'skipped' }
        : { ...item.body, subscription_status: result };
      out.push({ ...item, body });
    } else {
      out.push(item);
    }
  }
  return out;
}

/**
 * Grants left unsettled by an earlier run of the app (it was closed with the dialog
 * open) can never get their answer: settle them as failed so their actions can go.
 */
function settleAbandoned(items, session) {
  let out = items;
  for (const item of items) {
    if (isUnsettled(item) && item.session !== session) out = settle(out, item.id, null);
  }
  return out;
}

function createQueue(wx) {
  const load = () => wx.getStorageSync(QUEUE_KEY) || [];
  const save = (items) => wx.setStorageSync(QUEUE_KEY, items);
  return {
    load,
    push: (...items) => save([...load(), ...items]),
    settle: (requestId, result) => save(settle(load(), requestId, result)),
    settleAbandoned: (session) => save(settleAbandoned(load(), session)),
    /** Remove the item with this id (it was acknowledged or refused for good). */
    remove: (id) => save(load().filter((item) => item.id !== id)),
  };
}

module.exports = { createQueue, settle, settleAbandoned, isUnsettled, QUEUE_KEY };
