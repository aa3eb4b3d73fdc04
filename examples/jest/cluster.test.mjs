// The example suite on Jest (ES modules):
// `node --experimental-vm-modules node_modules/jest/bin/jest.js --rootDir examples/jest`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { clusterSuite } from '../suite.mjs';

clusterSuite({ describe, it, beforeAll, afterAll, afterEach, expectEqual: (a, b) => expect(a).toEqual(b) });
