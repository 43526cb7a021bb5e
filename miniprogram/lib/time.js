'use strict';
// Local-time helpers on an injected Date: the phone's clock and zone are the user's.

const pad = (n) => String(n).padStart(2, '0');

/** The phone's local date, YYYY-MM-DD (what "today" means for the count). */
function localDay(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** ISO 8601 in local time with its offset, e.g. 2026-11-30T09:15:00+08:00 (the contract
 * wants the offset, so keeper can check the skew and the user's day without guessing). */
function isoWithOffset(date) {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${localDay(date)}T${time}${offset}`;
}

module.exports = { localDay, isoWithOffset };
