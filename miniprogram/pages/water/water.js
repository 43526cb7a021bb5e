// The water page: a thin shell over lib/water.js (all logic is there, tested with node).
// `tap` must stay a plain function call: lib/water calls wx.requestSubscribeMessage
// synchronously inside it, which WeChat only allows within the tap gesture. Handlers
// return the logic's promise: WeChat ignores it, the tests await it.
const { createWater } = require('../../lib/water');

Page({
  data: {
    countText: '',
    stateText: '',
    nextText: '',
    grantText: '',
    enabled: false,
    pendingText: '',
    notice: '',
  },

  onLoad() {
    this.water = createWater({
      wx,
      origin: getApp().globalData.origin,
      now: () => new Date(),
      render: (view) => this.setData(view),
    });
  },

  onShow() {
    return this.water.show();
  },

  onTap() {
    return this.water.tap();
  },

  onSwitch(event) {
    return this.water.setEnabled(event.detail.value);
  },

  onCodeInput(event) {
    this.linkCode = event.detail.value;
  },

  onLink() {
    return this.water.link(this.linkCode);
  },
});
