import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { findResource } from '../api/kinds.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { Table } from '../api/meta/v1.js';
import { encodeBody } from '../machinery/codec/index.js';
import { fastPath } from '../registry/fast-path/index.js';
import { metadataFields } from '../registry/materialize.js';
import type { CachedObject } from '../storage/cacher/types.js';
import { TESTDATA } from '../../test/support/vectors.js';
import { buildTable, encodeList, type ResponseFormat, type TableOptions } from './encode.js';

const pods = findResource('', 'v1', 'pods') as KindVersion;
const deployments = findResource('apps', 'v1', 'deployments') as KindVersion;

/** kube-apiserver's pods of the vectors (whole objects), and pods whose metadata tests the splicing. */
function samplePods(): KubeObject[] {
  const table = JSON.parse(readFileSync(`${TESTDATA}/tables/pods.table.includeObject-Object.json`, 'utf8')) as { rows: Array<{ object: KubeObject }> };
  const vectors = table.rows.map((r) => r.object);
  const base = vectors.find((p) => (p.metadata as { managedFields?: unknown }).managedFields !== undefined)!;
  const meta = base.metadata as Record<string, unknown>;
  const { managedFields, ...withoutManaged } = meta;
  return [
    ...vectors,
    // No managedFields; managedFields the first member; characters Go escapes and JSON.stringify
    // does not; non-ASCII text; a finished pod (its row has conditions); a deleted one.
    { ...base, metadata: { ...withoutManaged, name: 'no-managed-fields' } },
    { ...base, metadata: { managedFields, ...withoutManaged, name: 'managed-fields-first' } },
    { ...base, metadata: { ...meta, name: 'escapes', annotations: { html: '<a href="x">&</a>', separators: 'a\u2028b\u2029c', control: 'x\b\f\u0001y', quote: 'say "\\hi\\"' } } },
    { ...base, metadata: { ...meta, name: 'non-ascii', labels: { app: 'x' }, annotations: { note: 'größe 🚀 日本' } } },
    { ...base, metadata: { ...meta, name: 'succeeded' }, status: { ...(base.status as object), phase: 'Succeeded' } },
    { ...base, metadata: { ...meta, name: 'deleted', deletionTimestamp: '2026-11-22T02:40:00Z', deletionGracePeriodSeconds: 30 } },
  ];
}

/** The pods as the watch cache holds them: through the fast path (in parts) or encoded whole. */
function cached(objects: readonly KubeObject[], fast: boolean): CachedObject[] {
  const writes = fastPath(fast).resourceWrites(metadataFields);
  return objects.map((obj, i) => {
    const m = obj.metadata as { namespace: string; name: string };
    const w = writes.prepare(`/registry/pods/${m.namespace}/${m.name}`, structuredClone(obj));
    writes.expect(w);
    return writes.materialize(w.key, w.stored, 100 + i, 100 + i);
  });
}

const decoder = new TextDecoder();
const decode = (o: CachedObject) => JSON.parse(decoder.decode(o.json)) as KubeObject;

function bodyOf(body: Uint8Array | string | readonly Uint8Array[]): string {
  return typeof body === 'string' ? body : Buffer.concat(body instanceof Uint8Array ? [body] : body).toString();
}

describe('Table lists from cached bytes', () => {
  const now = Date.parse('2026-11-22T02:36:40Z');
  for (const fast of [true, false]) {
    for (const asVersion of ['v1', 'v1beta1'] as const) {
      for (const includeObject of ['Metadata', 'None'] as const) {
        it(`equal the whole Table encoded (fast path ${fast ? 'on' : 'off'}, ${asVersion}, includeObject=${includeObject})`, () => {
          const items = cached(samplePods(), fast);
          if (fast) assert.ok(items.some((o) => o.parts !== undefined), 'some pods are held in parts');
          const fmt: ResponseFormat = { mediaType: 'application/json', as: 'Table', asVersion };
          const opts: TableOptions = { includeObject, now };
          const listMeta = { resourceVersion: '200', continue: 'token', remainingItemCount: 7 };
          const got = encodeList({ items, resourceVersion: '200', continue: 'token', remainingItemCount: 7 }, pods, fmt, (o, message) => ({ base: message(o), offsets: [], inserts: [], byteLength: message(o).byteLength }), opts);
          const want = encodeBody('json', buildTable(items.map(decode), pods, listMeta, fmt, opts), Table).toString();
          assert.equal(bodyOf(got.body), want);
          const table = JSON.parse(want) as { rows: Array<{ conditions?: unknown; object: unknown }> };
          assert.ok(table.rows.some((r) => r.conditions !== undefined), 'a row has conditions');
          if (includeObject === 'Metadata') assert.ok(want.includes('\\u003ca href'), 'the escapes are in the body');
        });
      }
    }
  }

  it('equal the whole Table for a kind with a printer of its own and an empty page', () => {
    const fmt: ResponseFormat = { mediaType: 'application/json', as: 'Table', asVersion: 'v1' };
    const opts: TableOptions = { includeObject: 'Metadata', now };
    const got = encodeList({ items: [], resourceVersion: '5' }, deployments, fmt, () => assert.fail('no protobuf'), opts);
    assert.equal(bodyOf(got.body), encodeBody('json', buildTable([], deployments, { resourceVersion: '5' }, fmt, opts), Table).toString());
  });
});
