import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../api/kinds.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { encodeBody } from '../machinery/codec/index.js';
import { fastPath, type FastPath } from '../registry/fast-path/index.js';
import { decodeStored, metadataFields } from '../registry/materialize.js';
import { encodeList, type ResponseFormat } from './encode.js';

const kv = findResource('', 'v1', 'pods') as KindVersion;

/**
 * Pods as the watch cache holds objects written through the API server: on the fast path in
 * parts, sharing the template's FieldsV1; off it, decoded and encoded.
 */
function cachedPods(fast: FastPath) {
  const fieldsV1 = Object.freeze({ 'f:spec': Object.freeze({ 'f:containers': Object.freeze({ 'k:{"name":"c"}': Object.freeze({ '.': Object.freeze({}), 'f:image': Object.freeze({}) }) }) }) });
  const writes = fast.resourceWrites(metadataFields);
  // Kilobytes of spec that are the same in every pod but for one image tag: held against the
  // first pod's bytes (registry/fast-path/template-chunks.ts), in JSON and in protobuf.
  const sidecars = Array.from({ length: 6 }, (_, c) => ({
    name: `sidecar-${c}`,
    image: `registry.k8s.io/sidecar-${c}:1.0`,
    args: ['--listen=0.0.0.0:8080', '--log-level=info', `--shard=${c}`],
    env: Array.from({ length: 3 }, (_, e) => ({ name: `VAR_${e}`, value: `value-${c}-${e}-${'y'.repeat(24)}` })),
  }));
  return ['a', 'bb', 'a-longer-name'].map((name, i) => {
    const pod: KubeObject = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name,
        namespace: 'ns',
        uid: `u-${i}`,
        managedFields: [
          { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: `2026-01-01T00:00:0${i}Z`, fieldsType: 'FieldsV1', fieldsV1 },
          { manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:09Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:phase': {} } }, subresource: 'status' },
        ],
      },
      spec: { containers: [{ name: 'c', image: `nginx:${i}` }, ...sidecars] },
      status: { phase: 'Running' },
    };
    const w = writes.prepare(`/registry/pods/ns/${name}`, pod);
    writes.expect(w);
    return writes.materialize(w.key, w.stored, 10 + i, 10 + i);
  });
}

function bodyBytes(body: Uint8Array | string | readonly Uint8Array[]): Buffer {
  return typeof body === 'string' ? Buffer.from(body) : body instanceof Uint8Array ? Buffer.from(body) : Buffer.concat(body);
}

for (const enabled of [true, false]) {
  describe(`list encoding from cached objects, fast path ${enabled ? 'on' : 'off'}`, () => {
    const fast = fastPath(enabled);
    const items = cachedPods(fast);
    if (enabled) assert.ok(items.every((o) => o.parts !== undefined && o.parts.inserts.some((b) => b.byteLength >= 64)), 'the pods share their FieldsV1');
    if (enabled) assert.ok(items.slice(1).every((o) => o.parts!.base.byteLength < items[0]!.parts!.base.byteLength / 2), `the pods share their template: ${items.map((o) => o.parts!.base.byteLength).join(' ')}`);
    const page = { items, resourceVersion: '20' };
    const expected = {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '20' },
      items: items.map((o) => {
        const { kind: _k, apiVersion: _a, ...rest } = decodeStored(Buffer.from(JSON.stringify(JSON.parse(new TextDecoder().decode(o.json)))), o.revision);
        return rest;
      }),
    };

    for (const [name, mediaType, codec] of [
      ['JSON', 'application/json', 'json'],
      ['protobuf', 'application/vnd.kubernetes.protobuf', 'protobuf'],
    ] as const) {
      it(`${name}: the bytes of encoding the whole list (twice: the protobuf items are cached)`, () => {
        const fmt: ResponseFormat = { mediaType, as: '', asVersion: 'v1' };
        for (let i = 0; i < 2; i++) {
          const got = bodyBytes(encodeList(page, kv, fmt, fast.protobufItem).body);
          assert.deepEqual(got, encodeBody(codec, expected, kv.list!));
        }
      });
    }
  });
}
