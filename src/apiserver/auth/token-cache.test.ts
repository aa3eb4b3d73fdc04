import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dependencyKey, TokenCache, type Validated } from './token-cache.js';

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A validator that counts its calls and answers what `answer` says. */
function counting<T>(answer: () => Validated<T>) {
  const calls = { n: 0 };
  return { calls, validate: async () => (calls.n++, answer()) };
}

describe('token cache', () => {
  it('remembers a success for the TTL, per token and audiences', async () => {
    const c = clock();
    const cache = new TokenCache<string>({ now: c.now });
    const v = counting(() => ({ value: 'alice', dependsOn: [] }));
    assert.equal(await cache.authenticate('t1', ['api'], v.validate), 'alice');
    assert.equal(await cache.authenticate('t1', ['api'], v.validate), 'alice');
    assert.equal(v.calls.n, 1);
    await cache.authenticate('t1', ['other'], v.validate);
    await cache.authenticate('t2', ['api'], v.validate);
    assert.equal(v.calls.n, 3, 'another audience or token is validated on its own');
    c.advance(9_999);
    await cache.authenticate('t1', ['api'], v.validate);
    assert.equal(v.calls.n, 3);
    c.advance(1);
    await cache.authenticate('t1', ['api'], v.validate);
    assert.equal(v.calls.n, 4, 'validated again once 10 s are over');
  });

  it('never past the credential’s own expiry', async () => {
    const c = clock();
    const cache = new TokenCache<string>({ now: c.now });
    const v = counting(() => ({ value: 'bob', dependsOn: [], validUntilMs: c.now() + 2_000 }));
    await cache.authenticate('t', [], v.validate);
    c.advance(2_000);
    await cache.authenticate('t', [], v.validate);
    assert.equal(v.calls.n, 2);
  });

  it('failures are not remembered by default, and for their own TTL when asked', async () => {
    const c = clock();
    let calls = 0;
    const refuse = async (): Promise<Validated<string>> => {
      calls++;
      throw new Error('refused');
    };
    const plain = new TokenCache<string>({ now: c.now });
    await assert.rejects(plain.authenticate('t', [], refuse));
    await assert.rejects(plain.authenticate('t', [], refuse));
    assert.equal(calls, 2);
    const keeping = new TokenCache<string>({ now: c.now, failureTtlMs: 1_000 });
    await assert.rejects(keeping.authenticate('t', [], refuse), /refused/);
    await assert.rejects(keeping.authenticate('t', [], refuse), /refused/);
    assert.equal(calls, 3);
    c.advance(1_000);
    await assert.rejects(keeping.authenticate('t', [], refuse));
    assert.equal(calls, 4);
  });

  it('an entry goes when an object it was validated against is invalidated', async () => {
    const cache = new TokenCache<string>({ now: clock().now });
    const sa = dependencyKey('serviceaccounts', 'ns', 'bot');
    const pod = dependencyKey('pods', 'ns', 'p');
    const a = counting(() => ({ value: 'a', dependsOn: [sa, pod] }));
    const b = counting(() => ({ value: 'b', dependsOn: [sa] }));
    const other = counting(() => ({ value: 'o', dependsOn: [dependencyKey('serviceaccounts', 'ns', 'other')] }));
    for (const [t, v] of [['a', a], ['b', b], ['o', other]] as const) await cache.authenticate(t, [], v.validate);
    cache.invalidate(pod);
    for (const [t, v] of [['a', a], ['b', b], ['o', other]] as const) await cache.authenticate(t, [], v.validate);
    assert.deepEqual([a.calls.n, b.calls.n, other.calls.n], [2, 1, 1]);
    cache.invalidate(sa);
    for (const [t, v] of [['a', a], ['b', b], ['o', other]] as const) await cache.authenticate(t, [], v.validate);
    assert.deepEqual([a.calls.n, b.calls.n, other.calls.n], [3, 2, 1]);
  });

  it('an authentication that overlapped an invalidation is not kept', async () => {
    const cache = new TokenCache<string>({ now: clock().now });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const slow = async (): Promise<Validated<string>> => {
      calls++;
      await gate;
      return { value: 'x', dependsOn: [dependencyKey('serviceaccounts', 'ns', 'bot')] };
    };
    const first = cache.authenticate('t', [], slow);
    // The service account went while the first validation had already read it.
    cache.invalidate(dependencyKey('serviceaccounts', 'ns', 'bot'));
    release();
    await first;
    await cache.authenticate('t', [], slow);
    assert.equal(calls, 2);
  });

  it('is bounded: the least recently used entry goes first', async () => {
    const cache = new TokenCache<string>({ now: clock().now, maxEntries: 2 });
    const v = counting(() => ({ value: 'v', dependsOn: [dependencyKey('pods', 'ns', 'p')] }));
    await cache.authenticate('t1', [], v.validate);
    await cache.authenticate('t2', [], v.validate);
    await cache.authenticate('t1', [], v.validate);
    await cache.authenticate('t3', [], v.validate);
    assert.equal(cache.size, 2);
    assert.equal(v.calls.n, 3);
    await cache.authenticate('t1', [], v.validate);
    assert.equal(v.calls.n, 3, 't1 was used more recently than t2');
    await cache.authenticate('t2', [], v.validate);
    assert.equal(v.calls.n, 4, 't2 was evicted');
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
