import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentNodeFlags } from './node-flags.js';

describe('componentNodeFlags', () => {
  it('sizes V8\'s thread pool from the machine, unless NODE_OPTIONS does', () => {
    assert.deepEqual(componentNodeFlags({}), ['--v8-pool-size=0']);
    assert.deepEqual(componentNodeFlags({ NODE_OPTIONS: '--max-old-space-size=512' }), ['--v8-pool-size=0']);
    assert.deepEqual(componentNodeFlags({ NODE_OPTIONS: '--v8-pool-size=4' }), []);
    assert.deepEqual(componentNodeFlags({ NODE_OPTIONS: '--v8_pool_size=4' }), []);
  });
});
