import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { findResource } from '../api/kinds.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { StatusError } from '../machinery/status.js';
import { fieldError } from '../machinery/validation/field-errors.js';
import { Cacher } from '../storage/cacher/index.js';
import { MemoryStorage } from '../storage/memory.js';
import { resourcePrefix } from './keys.js';
import { fastPath, type FastPath } from './fast-path/index.js';
import { metadataFields } from './materialize.js';
import { Store } from './store.js';
import type { ResourceStrategy } from './strategy.js';

function plainStrategy(over: Partial<ResourceStrategy> = {}): ResourceStrategy {
  return { hasStatus: false, tracksGeneration: false, validate: () => [], validateUpdate: () => [], ...over };
}

async function setupWith(fast: FastPath, resource: [string, string, string], strategy: ResourceStrategy) {
  const storage = new MemoryStorage();
  const cacher = new Cacher(storage);
  const kind = findResource(...resource) as KindVersion;
  const writes = fast.resourceWrites(metadataFields);
  const cache = cacher.register({ prefix: resourcePrefix(kind), materialize: writes.materialize });
  cacher.start();
  await cacher.ready;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const store = new Store({ kind, strategy, storage, cache, fieldsOf: metadataFields, writes, now: () => clock });
  return { store, storage, cacher, advance: (ms: number) => (clock += ms) };
}

const status = async (p: Promise<unknown>): Promise<StatusError> => {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a StatusError');
};

// Every case with the fast path on and off: it changes nothing but speed.
for (const enabled of [true, false]) {
  describe(`registry store, fast path ${enabled ? 'on' : 'off'}`, () => {
    const setup = (resource: [string, string, string], strategy: ResourceStrategy) => setupWith(fastPath(enabled), resource, strategy);

    const cachers: Cacher[] = [];
    after(async () => {
      for (const c of cachers) await c.stop();
    });

    it('create sets system metadata, stores, and refuses duplicates and namespace mismatches', async () => {
      const { store, cacher } = await setup(['', 'v1', 'configmaps'], plainStrategy());
      cachers.push(cacher);
      const created = await store.create('ns', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '99' }, data: { k: 'v' } });
      const m = created.metadata as Record<string, unknown>;
      assert.match(String(m.uid), /^[0-9a-f-]{36}$/);
      assert.equal(m.creationTimestamp, '2026-01-01T00:00:00Z');
      assert.equal(m.namespace, 'ns');
      assert.notEqual(m.resourceVersion, '99');
      assert.deepEqual(Object.keys(m), ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']);
      assert.deepEqual(await store.get('ns', 'a'), created);
      const dup = await status(store.create('ns', { metadata: { name: 'a' } }));
      assert.equal(dup.toJson(), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"a\\" already exists","reason":"AlreadyExists","details":{"name":"a","kind":"configmaps"},"code":409}\n');
      const mismatch = await status(store.create('ns', { metadata: { name: 'b', namespace: 'other' } }));
      assert.equal(mismatch.code, 400);
      const gen = await store.create('ns', { metadata: { generateName: 'gen-' } });
      assert.match(String((gen.metadata as Record<string, unknown>).name), /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      const missing = await status(store.get('ns', 'nope'));
      assert.equal(missing.code, 404);
      assert.equal(missing.message, 'configmaps "nope" not found');
    });

    it('dry run validates and answers without writing', async () => {
      const { store, storage, cacher } = await setup(['', 'v1', 'configmaps'], plainStrategy({
        validate: (o) => ((o.data as Record<string, string> | undefined)?.bad ? [fieldError.invalid('data', 'x', 'bad')] : []),
      }));
      cachers.push(cacher);
      const before = await storage.currentRevision();
      const dry = await store.create('ns', { metadata: { name: 'd' }, data: { a: 'b' } }, { dryRun: true });
      assert.equal((dry.metadata as Record<string, unknown>).resourceVersion, undefined);
      assert.equal(await storage.currentRevision(), before);
      const invalid = await status(store.create('ns', { metadata: { name: 'd' }, data: { bad: 'y' } }, { dryRun: true }));
      assert.equal(invalid.code, 422);
      assert.equal(invalid.message, 'ConfigMap "d" is invalid: data: Invalid value: "x": bad');
    });

    it('admission: mutate before the strategy validates, validate after it, both before the write (deletes too)', async () => {
      const strategy = plainStrategy({ validate: (o) => ((o.data as Record<string, string> | undefined)?.bad ? [fieldError.invalid('data', 'x', 'bad')] : []) });
      const { store, cacher, storage } = await setup(['', 'v1', 'configmaps'], strategy);
      cachers.push(cacher);
      const seen: string[] = [];
      const admission = {
        mutate(obj: Record<string, unknown> | undefined, old: Record<string, unknown> | undefined) {
          seen.push(`mutate ${obj === undefined ? 'delete' : old === undefined ? 'create' : 'update'}`);
          if (obj) obj.data = { ...((obj.data as object) ?? {}), added: 'by-admission' };
        },
        validate(obj: Record<string, unknown> | undefined, old: Record<string, unknown> | undefined) {
          seen.push(`validate ${obj === undefined ? 'delete' : old === undefined ? 'create' : 'update'}`);
          if ((obj?.data as Record<string, string> | undefined)?.refuse === 'yes') throw new StatusError(403, 'Forbidden', 'refused');
        },
      };
      const created = await store.create('ns', { metadata: { name: 'a' }, data: { k: '1' } }, { admission });
      assert.deepEqual(created.data, { k: '1', added: 'by-admission' });
      // Mutation happens before validation: an object admission makes invalid is refused with 422.
      const invalid = await status(store.create('ns', { metadata: { name: 'b' } }, { admission: { mutate: (o) => void (o!.data = { bad: 'y' }) } }));
      assert.equal(invalid.code, 422);
      const before = await storage.currentRevision();
      const refused = await status(store.create('ns', { metadata: { name: 'c' }, data: { refuse: 'yes' } }, { admission }));
      assert.equal(refused.code, 403);
      assert.equal(await storage.currentRevision(), before, 'nothing written');
      await store.guaranteedUpdate('ns', 'a', (o) => ({ ...o, data: { k: '2' } }), { admission });
      await store.delete('ns', 'a', { admission });
      assert.deepEqual(seen, ['mutate create', 'validate create', 'mutate create', 'validate create', 'mutate update', 'validate update', 'mutate delete', 'validate delete']);
    });

    it('update: optimistic lock, unconditional updates, no-op keeps the resourceVersion', async () => {
      const { store, cacher } = await setup(['', 'v1', 'configmaps'], plainStrategy());
      cachers.push(cacher);
      const created = await store.create('ns', { metadata: { name: 'a' }, data: { k: '1' } });
      const rv = String((created.metadata as Record<string, unknown>).resourceVersion);
      const updated = await store.update('ns', 'a', { metadata: { name: 'a', resourceVersion: rv }, data: { k: '2' } });
      assert.equal(updated.changed, true);
      const stale = await status(store.update('ns', 'a', { metadata: { name: 'a', resourceVersion: rv }, data: { k: '3' } }));
      assert.equal(stale.toJson(), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on configmaps \\"a\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"a","kind":"configmaps"},"code":409}\n');
      const unconditional = await store.update('ns', 'a', { metadata: { name: 'a' }, data: { k: '4' } });
      assert.deepEqual(unconditional.object.data, { k: '4' });
      // The uid and creationTimestamp survive a replace that leaves them out.
      assert.equal((unconditional.object.metadata as Record<string, unknown>).uid, (created.metadata as Record<string, unknown>).uid);
      const same = await store.update('ns', 'a', { metadata: { name: 'a' }, data: { k: '4' } });
      assert.equal(same.changed, false);
      assert.equal((same.object.metadata as Record<string, unknown>).resourceVersion, (unconditional.object.metadata as Record<string, unknown>).resourceVersion);
      const nameMismatch = await status(store.update('ns', 'a', { metadata: { name: 'b' } }));
      assert.equal(nameMismatch.message, 'the name of the object (b) does not match the name on the URL (a)');
      // Concurrent unconditional writers all land (each retries on a lost race).
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.guaranteedUpdate('ns', 'a', (cur) => ({ ...cur, data: { ...(cur.data as object), [`w${i}`]: 'x' } }))));
      assert.equal(Object.keys((await store.get('ns', 'a')).data as object).length, 11);
    });

    it('status and spec are written through their own paths; spec changes bump generation', async () => {
      const { store, cacher } = await setup(['apps', 'v1', 'deployments'], plainStrategy({ hasStatus: true, tracksGeneration: true }));
      cachers.push(cacher);
      const d: KubeObject = { metadata: { name: 'd' }, spec: { replicas: 1, selector: { matchLabels: { a: 'b' } } }, status: { replicas: 7 } };
      const created = await store.create('ns', d);
      assert.equal((created.metadata as Record<string, unknown>).generation, 1);
      assert.equal(created.status === undefined || Object.keys(created.status as object).length === 0, true, 'status from the body is dropped');
      const scaled = await store.update('ns', 'd', { ...created, spec: { ...(created.spec as object), replicas: 3 }, status: { replicas: 9 } });
      assert.equal((scaled.object.metadata as Record<string, unknown>).generation, 2);
      assert.equal((scaled.object.status as Record<string, unknown> | undefined)?.replicas, undefined, 'the main resource ignores status');
      const st = await store.update('ns', 'd', { ...scaled.object, spec: { replicas: 100 }, status: { replicas: 3 } }, { subresource: 'status' });
      assert.equal((st.object.spec as Record<string, unknown>).replicas, 3, 'the status subresource ignores spec');
      assert.equal((st.object.status as Record<string, unknown>).replicas, 3);
      assert.equal((st.object.metadata as Record<string, unknown>).generation, 2, 'status writes do not bump generation');
      const relabel = await store.update('ns', 'd', { ...st.object, metadata: { ...(st.object.metadata as object), labels: { x: 'y' } } });
      assert.equal((relabel.object.metadata as Record<string, unknown>).generation, 2, 'metadata writes do not bump generation');
    });

    it('delete: immediate, preconditions, finalizers and propagation policies, graceful pods', async () => {
      const { store, cacher, advance } = await setup(['', 'v1', 'pods'], plainStrategy({
        hasStatus: true,
        defaultGracePeriodSeconds: (o) => ((o.spec as Record<string, unknown>)?.nodeName ? 30 : 0),
      }));
      cachers.push(cacher);
      await store.create('ns', { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
      const gone = await store.delete('ns', 'p1');
      assert.equal(gone.deleted, true);
      assert.equal((await status(store.get('ns', 'p1'))).code, 404);
      assert.equal((await status(store.delete('ns', 'p1'))).code, 404);

      const p2 = await store.create('ns', { metadata: { name: 'p2' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
      const uidMismatch = await status(store.delete('ns', 'p2', { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } }));
      assert.equal(uidMismatch.message, `Operation cannot be fulfilled on Pod "p2": the UID in the precondition (00000000-0000-0000-0000-000000000000) does not match the UID in record (${(p2.metadata as Record<string, unknown>).uid}). The object might have been deleted and then recreated`);

      // Foreground deletion: the object stays with the finalizer and a deletionTimestamp.
      const fg = await store.delete('ns', 'p2', { propagationPolicy: 'Foreground' });
      assert.equal(fg.deleted, false);
      const fm = fg.object.metadata as Record<string, unknown>;
      assert.deepEqual(fm.finalizers, ['foregroundDeletion']);
      assert.equal(fm.deletionTimestamp, '2026-01-01T00:00:00Z');
      assert.equal(fm.deletionGracePeriodSeconds, 0);
      // Removing the last finalizer of an object being deleted deletes it (Kubernetes' shouldDeleteDuringUpdate).
      const emptied = await store.guaranteedUpdate('ns', 'p2', (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), finalizers: undefined } }));
      assert.equal(emptied.changed, true);
      assert.equal((await status(store.get('ns', 'p2'))).code, 404);

      // A bound pod is deleted gracefully: marked first, with its grace period.
      await store.create('ns', { metadata: { name: 'p3' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } });
      advance(5000);
      const graceful = await store.delete('ns', 'p3');
      assert.equal(graceful.deleted, false);
      assert.equal((graceful.object.metadata as Record<string, unknown>).deletionTimestamp, '2026-01-01T00:00:35Z');
      assert.equal((graceful.object.metadata as Record<string, unknown>).deletionGracePeriodSeconds, 30);
      const now = await store.delete('ns', 'p3', { gracePeriodSeconds: 0 });
      assert.equal(now.deleted, true);

      await store.create('ns', { metadata: { name: 'p4', finalizers: ['example.com/hold'] }, spec: { containers: [] } });
      const held = await store.delete('ns', 'p4', { propagationPolicy: 'Orphan' });
      assert.deepEqual((held.object.metadata as Record<string, unknown>).finalizers, ['example.com/hold', 'orphan']);
      const again = await store.delete('ns', 'p4');
      assert.equal(again.deleted, false, 'still held by finalizers');
      // Updates that keep a finalizer keep the object; removing the last one deletes it.
      await store.guaranteedUpdate('ns', 'p4', (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), finalizers: ['example.com/hold'] } }));
      assert.equal((await store.get('ns', 'p4')).metadata !== undefined, true);
      await store.guaranteedUpdate('ns', 'p4', (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), finalizers: [] } }));
      assert.equal((await status(store.get('ns', 'p4'))).code, 404);
    });
  });
}
