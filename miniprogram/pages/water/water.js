// The water page: a thin shell over lib/water.js (all logic is there, tested with node).
// `tap` must stay a plain function call: lib/water calls wx.requestSubscribeMessage
// synchronously inside it, which WeChat only allows within the tap gesture.
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
    this.water.show();
  },

  onTap() {
    this.water.tap();
  },

  onSwitch(event) {
    this.water.setEnabled(event.detail.value);
  },
});
