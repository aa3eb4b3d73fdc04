// The example suite on Vitest: `npx vitest run --root examples/vitest`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterSuite } from '../suite.mjs';

clusterSuite({ describe, it, beforeAll, afterAll, afterEach, expectEqual: (a, b) => expect(a).toEqual(b) });
