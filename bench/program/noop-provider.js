"use strict";
// The floor's provider: every method the real ones have, none of their work.
module.exports = {
  async configure() {},
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(inputs) {
    return { id: `noop-${inputs.index}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};
