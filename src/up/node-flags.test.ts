import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentNodeFlags } from './node-flags.js';

describe('componentNodeFlags', () => {
  it("gives V8's thread pool one thread fewer than the cores, at most four, unless NODE_OPTIONS sizes it", () => {
    assert.deepEqual(componentNodeFlags({}, 1), ['--v8-pool-size=1']);
    assert.deepEqual(componentNodeFlags({}, 2), ['--v8-pool-size=1']);
    assert.deepEqual(componentNodeFlags({}, 4), ['--v8-pool-size=3']);
    assert.deepEqual(componentNodeFlags({ NODE_OPTIONS: '--max-old-space-size=512' }, 64), ['--v8-pool-size=4']);
    assert.deepEqual(componentNodeFlags({ NODE_OPTIONS: '--v8-pool-size=4' }, 2), []);
    assert.deepEqual(componentNodeFlags({ NODE_OPTIONS: '--v8_pool_size=4' }, 2), []);
  });
});
