// List continue tokens as clients send them back: our own tokens, tokens of Kubernetes' shape with
// odd fields, keys that climb out of the resource's prefix, and noise. Each decodes to a position
// under the prefix or is refused with a ContinueTokenError (the list handler's 400); a token we
// encode decodes to the position it was made from.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ContinueTokenError, decodeContinue, encodeContinue } from '../../../src/apiserver/list/continue-token.js';
import { assertErrorClass, resultOrRefusal } from '../expect.js';
import type { FuzzTarget } from '../target.js';

const PREFIX = '/registry/configmaps/';
const segment = fc.oneof(fc.constantFrom('default', 'kube-system', '..', '.', '', 'a', '\u0000'), fc.string({ maxLength: 6 }));
const key = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

interface TokenCase {
  token: string;
  /** The key and revision it was encoded from, when it is one of ours. */
  from?: { key: string; rv: number };
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v) ?? '', 'utf8').toString('base64url');

export const continueTokenTarget: FuzzTarget<TokenCase> = {
  name: 'continue-token',
  input: fc.oneof(
    fc.record({ key: fc.stringMatching(/^[a-z0-9-]{1,10}\/[a-z0-9.-]{1,12}$/), rv: fc.oneof(fc.constant(-1), fc.integer({ min: 1 })) }).map((from) => ({ token: encodeContinue(PREFIX, PREFIX + from.key, from.rv), from })),
    fc.record({ v: fc.oneof(fc.constant('meta.k8s.io/v1'), fc.jsonValue({ maxDepth: 1 })), rv: fc.oneof(fc.integer({ min: -3 }), fc.double(), fc.string(), fc.constant(null)), start: fc.oneof(key, fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] }).map((t) => ({ token: b64(t) })),
    fc.jsonValue({ maxDepth: 3 }).map((v) => ({ token: b64(v) })),
    fc.string({ maxLength: 40 }).map((token) => ({ token })),
    fc.uint8Array({ maxLength: 40 }).map((b) => ({ token: Buffer.from(b).toString('base64url') })),
  ),
  testRuns: 10_000,
  check({ token, from }) {
    const position = resultOrRefusal(() => decodeContinue(token, PREFIX), assertErrorClass(ContinueTokenError));
    if (from) {
      assert.deepEqual(position, { revision: from.rv, startAfter: PREFIX + from.key });
      return;
    }
    if (!position) return;
    assert.ok(position.startAfter.startsWith(PREFIX), `${JSON.stringify(position.startAfter)} is outside ${PREFIX}`);
    assert.ok(!position.startAfter.slice(PREFIX.length).split('/').includes('..'), `${JSON.stringify(position.startAfter)} climbs out`);
    assert.ok(Number.isInteger(position.revision) && (position.revision === -1 || position.revision > 0));
  },
};
