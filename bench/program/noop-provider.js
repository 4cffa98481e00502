"use strict";
// The floor's provider: every method the real ones have, none of their work. A kind's own floor
// returns, beyond the inputs, what the kind returned (BENCH_FLOOR_OUTPUTS names the file).
const { readFileSync } = require("node:fs");

const returned = process.env.BENCH_FLOOR_OUTPUTS ? JSON.parse(readFileSync(process.env.BENCH_FLOOR_OUTPUTS, "utf8")) : {};

module.exports = {
  async configure() {},
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(inputs) {
    return { id: `noop-${inputs.index}`, outs: { ...inputs, ...returned } };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: { ...news, ...returned } };
  },
  async delete() {},
};
