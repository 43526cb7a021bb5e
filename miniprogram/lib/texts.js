'use strict';
// Every sentence the page says, in one table (as handlers/texts.py is for the chat).

const STATE = {
  disabled: '喝水提醒已关闭',
  scheduled: '喝水提醒已开启',
  sending: '正在发送提醒',
  awaiting_checkin: '提醒已发出，喝完点一下',
  paused: '提醒已暂停，点 +1 或打开开关可继续',
};

module.exports = {
  STATE,
  unknownState: '提醒状态未知',
  loading: '正在读取…',
  needsGrant: '点 +1 时允许一次提醒，下次才能提醒你',
  next: (when) => `下次提醒 ${when}`,
  noNext: '暂无下次提醒',
  count: (count, goal) => `${count} / ${goal} 杯`,
  pending: (n) => `${n} 条待同步`,
  offline: '网络不通，已存在手机上，稍后自动同步',
  serverDown: '服务暂时不可用，已存在手机上，稍后自动同步',
  loginFailed: '登录没有成功，稍后自动重试',
  dropped: (message) => `有一条没能记上：${message || '请求无效'}`,
  switchFailed: '网络不通，开关没有切换，请稍后再试',
  refused: (message) => message || '请求无效',
  linkCodeHint: '请输入企业微信里「绑定 小程序」给的 6 位数字',
  linkFailed: '网络不通，没有绑定上，请稍后再试',
  linked: '已和企业微信绑定，两边的喝水记录合在一起了',
};
