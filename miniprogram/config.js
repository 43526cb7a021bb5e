// Where your keeper runs (the origin only; the client adds /api/mp/v1). The domain must
// also be listed as a "request legal domain" in the mini-program admin console.
module.exports = {
  origin: 'https://keeper.example.com',
};
