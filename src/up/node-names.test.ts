import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeNamesOf } from './node-names.js';

test('nodeNamesOf: the default names, and the prefix and first index the nodes flags give', () => {
  assert.deepEqual(nodeNamesOf(2, []), ['kubelite-node-0', 'kubelite-node-1']);
  assert.deepEqual(nodeNamesOf(2, ['--node-name-prefix', 'w-', '--first-node-index=5']), ['w-5', 'w-6']);
  assert.deepEqual(nodeNamesOf(1, ['--node-name-prefix=a-', '--node-name-prefix', 'b-']), ['b-0'], 'the last one wins');
  assert.deepEqual(nodeNamesOf(0, []), []);
});
