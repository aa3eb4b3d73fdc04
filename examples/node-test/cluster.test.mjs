// The example suite on node:test: `node --test examples/node-test/`.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { clusterSuite } from '../suite.mjs';

clusterSuite({ describe, it, beforeAll: before, afterAll: after, afterEach, expectEqual: (a, b) => assert.deepEqual(a, b) });
