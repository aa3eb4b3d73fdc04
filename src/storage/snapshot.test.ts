// Snapshots and restores on the memory store: the restore is a diff of ordinary writes (created,
// updated, deleted counted, nothing untouched rewritten), a writer racing it is retried, and the
// file format refuses what is not a whole snapshot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStorage } from './memory.js';
import { decodeSnapshot, encodeSnapshot, restoreSnapshot, SnapshotFormatError, takeSnapshot } from './snapshot.js';

const enc = (s: string) => Buffer.from(s);

test('a restore writes only the differences, with new revisions', async () => {
  const store = new MemoryStorage();
  await store.create('/registry/a', enc('a1'));
  await store.create('/registry/b', enc('b1'));
  await store.create('/registry/c', enc('c1'));
  const snap = await takeSnapshot(store);
  assert.equal(snap.entries.size, 3);
  await store.update('/registry/a', enc('a2'));
  await store.delete('/registry/b');
  await store.create('/registry/d', enc('d1'));
  const before = await store.currentRevision();
  const r = await restoreSnapshot(store, snap);
  assert.deepEqual([r.created, r.updated, r.deleted], [1, 1, 1]);
  assert.equal(r.revision, before + 3);
  const now = await takeSnapshot(store);
  assert.deepEqual([...now.entries].map(([k, v]) => `${k}=${Buffer.from(v).toString()}`), ['/registry/a=a1', '/registry/b=b1', '/registry/c=c1']);
  // c was never rewritten
  assert.equal((await store.get('/registry/c'))!.modRevision, 3);
  await store.close();
});

test('a key written while the restore runs is read again and restored', async () => {
  const store = new MemoryStorage();
  await store.create('/registry/a', enc('a1'));
  const snap = await takeSnapshot(store);
  await store.update('/registry/a', enc('a2'));
  // a writer slips in between the restore's read and its write
  const list = store.list.bind(store);
  store.list = async (...args) => {
    const page = await list(...args);
    store.list = list;
    await store.update('/registry/a', enc('a3'));
    return page;
  };
  await restoreSnapshot(store, snap);
  assert.equal(Buffer.from((await store.get('/registry/a'))!.value).toString(), 'a1');
  await store.close();
});

test('the file format: round trip, and a clear refusal of anything else', () => {
  const snap = { revision: 7, entries: new Map([['/registry/x', enc('\u0000binary\u00ff')]]) };
  const back = decodeSnapshot(encodeSnapshot(snap));
  assert.equal(back.revision, 7);
  assert.deepEqual(Buffer.from(back.entries.get('/registry/x')!), enc('\u0000binary\u00ff'));
  const bad: Array<[string, RegExp]> = [
    ['', /empty/],
    ['{"format":"other"}\n', /not a kubelite snapshot/],
    ['{"format":"kubelite-snapshot/v1","revision":1,"keys":2}\n{"key":"/registry/x","value":""}\n', /truncated: the header says 2 keys, the file holds 1/],
    ['{"format":"kubelite-snapshot/v1","revision":1,"keys":1}\n{"key":"/elsewhere","value":""}\n', /a key under \/registry\//],
    ['{"format":"kubelite-snapshot/v1","revision":1,"keys":1}\nnot json\n', /line 2: not a snapshot record/],
  ];
  for (const [text, re] of bad) assert.throws(() => decodeSnapshot(Buffer.from(text)), (e: unknown) => e instanceof SnapshotFormatError && re.test(e.message), text);
});
