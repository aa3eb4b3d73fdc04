import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { encodeJson } from '../../machinery/codec/json.js';
import { Cacher, forEachRange, jsonLength, type CachedObject } from '../../storage/cacher/index.js';
import { MemoryStorage } from '../../storage/memory.js';
import { resourcePrefix } from '../keys.js';
import { decodeStored, metadataFields, plainMaterializer } from '../materialize.js';
import { Store } from '../store.js';
import { fastPath } from './index.js';
import { materializer, prepareWrite, RecentWrites, servedJsonOf, servedPieces } from './prepared-writes.js';

const text = new TextDecoder();

function pod(meta: KubeObject, extra: KubeObject = {}): KubeObject {
  return { kind: 'Pod', apiVersion: 'v1', metadata: meta, spec: { containers: [{ name: 'c', image: 'nginx' }] }, ...extra };
}

/** What the watch cache and responses served before writes were serialized once. */
function slowServed(stored: Uint8Array, revision: number): string {
  return encodeJson(decodeStored(stored, revision));
}

describe('writes serialized once', () => {
  const cases: Array<[string, KubeObject]> = [
    ['name only', pod({ name: 'a' })],
    ['namespace, uid, labels, annotations', pod({ name: 'a', namespace: 'ns', uid: 'u-1', creationTimestamp: '2026-01-01T00:00:00Z', labels: { x: 'y' }, annotations: { a: 'b' } })],
    ['a stale resourceVersion is replaced', pod({ name: 'a', namespace: 'ns', resourceVersion: '12', generation: 3 })],
    ['Go escapes in strings', pod({ name: 'a', annotations: { html: '<b>&</b>', seps: '\u2028\u2029', ctl: '\b\f\u0001' } })],
    ['generateName before the slot', pod({ name: 'a', generateName: 'x<', namespace: 'n&' })],
    ['non-ASCII before and after the slot', pod({ name: 'a', generateName: 'é', namespace: 'ns' }, { status: { note: 'héllo ☃ 𝄞' } })],
    ['resourceVersion the only metadata key but one', pod({ name: 'a' }, {})],
    ['a value that looks like the slot', pod({ name: 'a', annotations: { resourceVersion: '\u0001' } }, { status: { note: '"resourceVersion":"\u0001"' } })],
    [
      'managedFields sharing frozen FieldsV1 (spliced from cached text), and one not shared',
      pod({
        name: 'a',
        namespace: 'ns',
        managedFields: [
          { manager: 'm1', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: Object.freeze({ 'f:spec': Object.freeze({ 'f:x<': Object.freeze({}) }) }) },
          { manager: 'm2', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'k:{"a":"é"}': {} } } } },
          { manager: 'm3', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: Object.freeze({ 'f:status': Object.freeze({}) }) },
        ],
      }),
    ],
  ];
  for (const [what, obj] of cases) {
    it(`stores what the store stored before and serves what decoding served: ${what}`, () => {
      const w = prepareWrite('/registry/pods/ns/a', obj, metadataFields);
      const { resourceVersion: _rv, ...rest } = obj.metadata as KubeObject;
      assert.equal(w.stored.toString(), JSON.stringify({ ...obj, metadata: rest }));
      assert.ok(w.layout !== undefined);
      assert.equal(Buffer.concat(servedPieces(w, 42)!).toString(), slowServed(w.stored, 42));
      // The watch cache's entry: the same bytes, joined or copied range by range as lists do.
      const recent = new RecentWrites();
      recent.add(w);
      const cached = materializer(metadataFields, recent)('/registry/pods/ns/a', Buffer.from(w.stored), 42, 42);
      assert.equal(text.decode(cached.json), slowServed(w.stored, 42));
      assert.equal(jsonLength(cached), cached.json.byteLength);
      if (cached.parts !== undefined) {
        const pieces: Buffer[] = [];
        forEachRange(cached.parts, 5, cached.parts.byteLength - 1, (src, start, end) => pieces.push(Buffer.from(src.subarray(start, end))));
        assert.equal(Buffer.concat(pieces).toString(), slowServed(w.stored, 42).slice(5, -1));
      }
      // Again: cached texts (shared FieldsV1) give the same bytes.
      assert.deepEqual(prepareWrite('/registry/pods/ns/a', obj, metadataFields).stored, w.stored);
    });
  }

  it('the watch cache entry of a prepared write is the one decoding would build', () => {
    const recent = new RecentWrites();
    const obj = pod({ name: 'a', namespace: 'ns', labels: { app: 'web' } });
    const w = prepareWrite('/registry/pods/ns/a', obj, metadataFields);
    recent.add(w);
    const fast = materializer(metadataFields, recent)('/registry/pods/ns/a', Buffer.from(w.stored), 7, 7);
    const slow = plainMaterializer(metadataFields)('/registry/pods/ns/a', w.stored, 7, 7);
    assert.equal(recent.size, 0);
    const view = (o: CachedObject) => ({ key: o.key, namespace: o.namespace, name: o.name, revision: o.revision, labels: o.labels, fields: o.fields, json: text.decode(o.json) });
    assert.deepEqual(view(fast), view(slow));
    // Other bytes for the key (another writer's): decoded as before.
    recent.add(w);
    const other = Buffer.from(JSON.stringify(pod({ name: 'a', namespace: 'ns', labels: { app: 'other' } })));
    const decoded = materializer(metadataFields, recent)('/registry/pods/ns/a', other, 8, 7);
    assert.deepEqual(decoded.labels, { app: 'other' });
    assert.equal(recent.size, 1);
  });

  it('objects made from one template hold one copy of their shared FieldsV1 JSON', () => {
    const fieldsV1 = Object.freeze({ 'f:spec': Object.freeze({ 'f:containers': Object.freeze({}) }) });
    const entry = (t: string) => ({ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: t, fieldsType: 'FieldsV1', fieldsV1 });
    const recent = new RecentWrites();
    const [a, b] = ['a', 'b'].map((n, i) => {
      const w = prepareWrite(`/registry/pods/ns/${n}`, pod({ name: n, namespace: 'ns', managedFields: [entry(`2026-01-01T00:00:0${i}Z`)] }), metadataFields);
      recent.add(w);
      return materializer(metadataFields, recent)(`/registry/pods/ns/${n}`, w.stored, 10 + i, 10 + i);
    });
    const shared = (o: CachedObject) => o.parts!.inserts.filter((bytes) => text.decode(bytes) === JSON.stringify(fieldsV1));
    assert.equal(shared(a!).length, 1);
    assert.equal(shared(a!)[0], shared(b!)[0]);
    assert.ok(a!.parts!.base.byteLength < a!.parts!.byteLength - JSON.stringify(fieldsV1).length + 1);
    assert.equal(text.decode(b!.json), encodeJson(decodeStored(prepareWrite('/registry/pods/ns/b', pod({ name: 'b', namespace: 'ns', managedFields: [entry('2026-01-01T00:00:01Z')] }), metadataFields).stored, 11)));
  });

  it('objects made from one template hold only the bytes that differ from its first object', () => {
    const fieldsV1 = Object.freeze({ 'f:spec': Object.freeze({ 'f:containers': Object.freeze({}), 'f:volumes': Object.freeze({}) }) });
    const big = (n: string, i: number): KubeObject =>
      pod(
        { name: n, namespace: 'ns', uid: `0000000${i}-aaaa-bbbb-cccc-${String(i).padStart(12, '0')}`, labels: { app: 'web', tier: 'front' }, managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: `2026-01-01T00:00:0${i}Z`, fieldsType: 'FieldsV1', fieldsV1 }] },
        {
          spec: {
            // As a pod's: kilobytes of spec, and one generated volume name mounted by one container.
            containers: Array.from({ length: 4 }, (_, c) => ({
              name: `c${c}`,
              image: `registry.k8s.io/image-${c}:1.${c}`,
              args: ['--listen=0.0.0.0:8080', '--log-level=info', `--shard=${c}`],
              env: Array.from({ length: 4 }, (_, e) => ({ name: `VAR_${e}`, value: `value-${c}-${e}-${'y'.repeat(20)}` })),
              volumeMounts: [{ name: c === 0 ? `token-${n}` : 'config', mountPath: '/var/run/secrets' }],
            })),
            volumes: [{ name: `token-${n}`, projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] } }],
          },
          status: { phase: i % 2 ? 'Pending' : 'Running' },
        },
      );
    const recent = new RecentWrites();
    const names = ['first', 'b', 'a-much-longer-name', 'c'];
    const objects = names.map((n, i) => {
      const obj = big(n, i);
      const w = prepareWrite(`/registry/pods/ns/${n}`, obj, metadataFields);
      recent.add(w);
      return { o: materializer(metadataFields, recent)(`/registry/pods/ns/${n}`, w.stored, 10 + i, 10 + i), w };
    });
    for (const [i, { o, w }] of objects.entries()) {
      // Served bytes are exactly what decoding the stored bytes gives, whatever the layout.
      assert.equal(text.decode(o.json), slowServed(w.stored, 10 + i));
      assert.equal(jsonLength(o), o.json.byteLength);
    }
    const own = objects.map(({ o }) => o.parts!.base.byteLength);
    // The first object is the template and keeps its bytes; the others keep a fraction of theirs.
    for (const n of own.slice(1)) assert.ok(n < own[0]! / 2, `own bytes ${n} vs the template's ${own[0]}`);
    // An object unlike the template keeps its bytes whole.
    const other = prepareWrite('/registry/pods/ns/z', pod({ name: 'z', namespace: 'ns', managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1 }] }, { spec: { nodeName: 'x'.repeat(600) } }), metadataFields);
    recent.add(other);
    const z = materializer(metadataFields, recent)('/registry/pods/ns/z', other.stored, 20, 20);
    assert.equal(text.decode(z.json), slowServed(other.stored, 20));
    assert.ok(z.parts!.base.byteLength > 600);
  });

  it('objects of a template written from its shape are byte for byte what JSON.stringify writes', () => {
    const fieldsV1 = Object.freeze({ 'f:spec': Object.freeze({ 'f:containers': Object.freeze({}), 'f:volumes': Object.freeze({}) }) });
    const made = (n: string, i: number, edit: (o: KubeObject) => void = () => {}): KubeObject => {
      const time = `2026-01-01T00:00:0${i % 3}Z`;
      const o = pod(
        { name: n, namespace: 'ns', uid: `uid-${i}`, creationTimestamp: time, labels: { app: 'web' }, managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 }] },
        {
          spec: {
            containers: [{ name: 'c', image: 'nginx', args: ['--listen=0.0.0.0:8080', '--log-level=info'], volumeMounts: [{ name: `token-${i}`, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
            volumes: [{ name: `token-${i}`, projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] } }],
            priority: 0,
          },
          status: { phase: 'Pending' },
        },
      );
      edit(o);
      return o;
    };
    const spec = (o: KubeObject) => o.spec as { priority: number; containers: Array<{ image: string }> };
    const objects = [
      ...Array.from({ length: 8 }, (_, i) => made(`pod-${i}`, i)),
      // Variable leaves with other values: non-ASCII, a longer name.
      made('pöd-☃', 8),
      made(`pod-${'x'.repeat(200)}`, 9),
      // Not the template's shape: each takes the general path, and is stored as exactly.
      made('escaped<', 10),
      made('a', 11, (o) => ((o.metadata as KubeObject).labels = { app: 'web', extra: '1' })),
      made('b', 12, (o) => (spec(o).priority = 1)),
      made('c', 13, (o) => (spec(o).containers[0]!.image = 'httpd')),
      made('d', 14, (o) => ((o.metadata as KubeObject).resourceVersion = '77')),
      made('e', 15),
    ];
    const recent = new RecentWrites();
    const own: number[] = [];
    objects.forEach((obj, i) => {
      const w = prepareWrite(`/registry/pods/ns/${i}`, obj, metadataFields);
      const { resourceVersion: _rv, ...rest } = obj.metadata as KubeObject;
      assert.equal(w.stored.toString(), JSON.stringify({ ...obj, metadata: rest }), `object ${i}`);
      assert.equal(Buffer.concat(servedPieces(w, 100 + i)!).toString(), slowServed(w.stored, 100 + i), `object ${i}`);
      recent.add(w);
      const cached = materializer(metadataFields, recent)(w.key, Buffer.from(w.stored), 100 + i, 100 + i);
      assert.equal(text.decode(cached.json), slowServed(w.stored, 100 + i));
      own.push(cached.parts?.base.byteLength ?? -1);
    });
    // Written from the shape, an object keeps little more than its variable leaves.
    assert.ok(own[7]! < 200, `own bytes ${own}`);
    assert.ok(own[15]! < 200, `own bytes ${own[15]}`);
  });

  it('updated objects, whose FieldsV1 is decoded anew, share it by its text, and their template', () => {
    // Not frozen: as an object read back from storage and updated has it.
    const fieldsOf = () => ({ 'f:spec': Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f:field-number-${i}`, {}])) });
    const recent = new RecentWrites();
    const spec = { containers: Array.from({ length: 10 }, (_, c) => ({ name: `c${c}`, image: `registry.k8s.io/image-${c}:1.${c}`, args: ['--a=1', '--b=2', `--c=${'x'.repeat(40)}`] })) };
    const cached = ['one', 'two', 'three'].map((n, i) => {
      const w = prepareWrite(`/registry/pods/ns/${n}`, pod({ name: n, namespace: 'ns', managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: fieldsOf() }] }, { spec, status: { podIP: `10.0.0.${i}` } }), metadataFields);
      recent.add(w);
      const o = materializer(metadataFields, recent)(w.key, w.stored, 30 + i, 30 + i);
      assert.equal(text.decode(o.json), slowServed(w.stored, 30 + i));
      return o;
    });
    const fieldsText = JSON.stringify(fieldsOf());
    const sharedOf = (o: CachedObject) => o.parts!.inserts.find((b) => text.decode(b) === fieldsText);
    // Seen once, a FieldsV1 stays inline; from its second sighting on it is shared.
    assert.equal(sharedOf(cached[0]!), undefined);
    assert.ok(sharedOf(cached[1]!) !== undefined && sharedOf(cached[1]!) === sharedOf(cached[2]!));
    // The second object is the template of the objects with that FieldsV1; the third shares its bytes.
    assert.ok(cached[2]!.parts!.base.byteLength < cached[1]!.parts!.base.byteLength / 2);
  });

  it('RecentWrites is bounded and forgets failed writes', () => {
    const recent = new RecentWrites(2);
    const ws = ['a', 'b', 'c'].map((n) => prepareWrite(`/registry/pods/ns/${n}`, pod({ name: n }), metadataFields));
    for (const w of ws) recent.add(w);
    assert.equal(recent.size, 2);
    assert.equal(recent.take('/registry/pods/ns/a', ws[0]!.stored), undefined);
    recent.drop(ws[1]!);
    assert.equal(recent.size, 1);
  });

  for (const enabled of [true, false]) {
    it(`through the store, fast path ${enabled ? 'on' : 'off'}: responses and cache entries match storage, creates and updates`, async () => {
      const storage = new MemoryStorage();
      const cacher = new Cacher(storage);
      const kind = findResource('', 'v1', 'pods') as KindVersion;
      const writes = fastPath(enabled).resourceWrites(metadataFields);
      const cache = cacher.register({ prefix: resourcePrefix(kind), materialize: writes.materialize });
      cacher.start();
      await cacher.ready;
      const store = new Store({
        kind,
        strategy: { hasStatus: false, tracksGeneration: false, validate: () => [], validateUpdate: () => [] },
        storage,
        cache,
        fieldsOf: metadataFields,
        writes,
      });
      // Off the fast path a write's response has no recorded bytes: it is encoded from the object.
      const served = (obj: KubeObject) => (enabled ? Buffer.concat(servedJsonOf(obj)!).toString() : encodeJson(obj));
      try {
        const created = await store.create('ns', pod({ name: 'p', labels: { a: '1' }, annotations: { note: '<b>&</b>' } }));
        const stored = (await storage.get('/registry/pods/ns/p'))!;
        assert.equal(servedJsonOf(created) === undefined, !enabled);
        assert.equal(served(created), slowServed(stored.value, stored.modRevision));
        assert.equal(served(created), encodeJson(created));
        await cacher.waitForRevision(stored.modRevision);
        assert.equal(text.decode(cache.get('/registry/pods/ns/p')!.json), encodeJson(created));

        const updated = await store.guaranteedUpdate('ns', 'p', (cur) => ({ ...cur, metadata: { ...(cur.metadata as KubeObject), labels: { a: '2' } } }));
        const stored2 = (await storage.get('/registry/pods/ns/p'))!;
        assert.equal(served(updated.object), slowServed(stored2.value, stored2.modRevision));
        await cacher.waitForRevision(stored2.modRevision);
        assert.equal(text.decode(cache.get('/registry/pods/ns/p')!.json), encodeJson(updated.object));
        assert.deepEqual(cache.get('/registry/pods/ns/p')!.labels, { a: '2' });

        // A changed object is not served from the recorded bytes.
        updated.object.metadata = { ...(updated.object.metadata as KubeObject) };
        assert.equal(servedJsonOf(updated.object), undefined);
      } finally {
        await cacher.stop();
      }
    });
  }
});
