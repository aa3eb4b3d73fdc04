import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStorage } from '../memory.js';
import { Cacher } from './index.js';
import { encode, jsonMaterialize, obj } from './test-support.js';

/** A small deterministic PRNG, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('watch cache: lists at an older revision', () => {
  it('equal storage reads at that revision (creates, updates, deletes, re-creates; prefixes, filters, pages)', async () => {
    const storage = new MemoryStorage();
    const cacher = new Cacher(storage);
    const cache = cacher.register({ prefix: '/registry/pods/', materialize: jsonMaterialize });
    cacher.start();
    await cacher.ready;
    const random = rng(7);
    const names = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const revisions: number[] = [];
    for (let step = 0; step < 600; step++) {
      const ns = random() < 0.5 ? 'a' : 'b';
      const name = names[Math.floor(random() * names.length)]!;
      const key = `/registry/pods/${ns}/${name}`;
      const cur = await storage.get(key);
      const value = encode(obj(name, ns, { tier: random() < 0.5 ? 'web' : 'db' }, { step }));
      if (!cur) revisions.push(await storage.create(key, value));
      else if (random() < 0.3) revisions.push((await storage.delete(key)).revision);
      else revisions.push(await storage.update(key, value));
    }
    await cacher.waitForRevision(revisions[revisions.length - 1]!);
    const web = (o: { labels: Readonly<Record<string, string>> }) => o.labels.tier === 'web';
    const samples = [revisions[0]!, revisions[10]!, revisions[299]!, revisions[598]!, revisions[599]!];
    for (const rev of samples) {
      for (const prefix of ['/registry/pods/', '/registry/pods/a/']) {
        for (const filter of [undefined, web]) {
          for (const limit of [undefined, 1, 7]) {
            // Walk all pages the way handleList does and compare with storage at `rev`.
            let startAfter: string | undefined;
            const got: string[] = [];
            for (;;) {
              const page = cache.listAt(rev, { prefix, filter, limit, startAfter });
              assert.ok(page, `window covers ${rev}`);
              assert.equal(page.revision, rev);
              got.push(...page.items.map((o) => `${o.key}@${o.revision}`));
              if (!page.more) break;
              assert.equal(page.lastKey, page.items[page.items.length - 1]!.key);
              startAfter = page.lastKey;
            }
            const want = (await storage.list(prefix, { revision: rev })).items
              .map((kv) => jsonMaterialize(kv.key, kv.value, kv.modRevision))
              .filter((o) => !filter || filter(o))
              .map((o) => `${o.key}@${o.revision}`);
            assert.deepEqual(got, want, `rev ${rev} prefix ${prefix} filter ${filter ? 'web' : '-'} limit ${limit}`);
          }
        }
      }
    }
    // Beyond the cache or before the window: not served.
    assert.equal(cache.listAt(cacher.revision + 1, { prefix: '/registry/pods/' }), undefined);
    await cacher.stop();
  });

  it('a revision older than the window is not served from the cache', async () => {
    const storage = new MemoryStorage();
    const cacher = new Cacher(storage);
    const cache = cacher.register({ prefix: '/registry/pods/', materialize: jsonMaterialize, window: { maxEvents: 5, minEvents: 0 } });
    cacher.start();
    await cacher.ready;
    const first = await storage.create('/registry/pods/a/x', encode(obj('x', 'a')));
    for (let i = 0; i < 10; i++) await storage.update('/registry/pods/a/x', encode(obj('x', 'a', undefined, { i })));
    await cacher.waitForRevision(first + 10);
    assert.equal(cache.listAt(first, { prefix: '/registry/pods/' }), undefined);
    assert.deepEqual(cache.listAt(first + 10, { prefix: '/registry/pods/' })?.items.map((o) => o.revision), [first + 10]);
    await cacher.stop();
  });
});
