'use strict';
// Client-made ids (action_id, request_id) that the server uses as idempotency keys.
//
// Why not crypto: the mini-program runtime has no `crypto.getRandomValues`, and
// `wx.getRandomValues` answers through a callback, while the request_id must exist
// synchronously inside the tap handler, before `wx.requestSubscribeMessage` is called.
// The ids need to be unique per user, not secret (the server keys them on the user),
// so a version-4-shaped UUID whose first 48 bits are the millisecond clock and whose
// other 74 free bits come from Math.random is enough: two ids collide only when made
// in the same millisecond with the same 74 random bits.

const HEX = '0123456789abcdef';

function randomNibble(random) {
  return Math.floor(random() * 16) & 0xf;
}

/**
 * A new id shaped like a UUID v4 (8-4-4-4-12 hex, version 4, variant 10xx).
 * @param {() => number} nowMs the clock in milliseconds (injected for tests)
 * @param {() => number} random a [0, 1) source (injected for tests)
 */
function newId(nowMs = Date.now, random = Math.random) {
  const time = Math.floor(nowMs()).toString(16).padStart(12, '0').slice(-12);
  const nibbles = time.split('');
  for (let i = 12; i < 32; i += 1) {
    nibbles.push(HEX[randomNibble(random)]);
  }
  nibbles[12] = '4';
  nibbles[16] = HEX[8 + (randomNibble(random) & 0x3)];
  const s = nibbles.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

module.exports = { newId };
