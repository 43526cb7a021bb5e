// The app holds no state of its own: the water page keeps its cache and pending queue
// in wx storage, so a restart loses nothing that was tapped.
const config = require('./config');

App({
  globalData: { origin: config.origin },
});
