// The codecs against the golden vectors of kube-apiserver v1.26.1 (../shared/testdata): every
// declared kind's JSON and protobuf bytes, lists, watch streams, the protobuf bodies kubectl sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as meta from '../../api/meta/v1.js';
import type { StructType } from '../../api/schema/dsl.js';
import { encodeJson } from './json.js';
import { normalize } from './normalize.js';
import { decodeProtobuf, encodeProtobuf, readEnvelope } from './protobuf.js';
import { decodeWatchFrame, decodeWatchEventJson, encodeWatchEventJson, encodeWatchFrame, WatchFrameDecoder } from './watch.js';
import { dumpBody, resolveType, v126View, vectorBytes, vectorFiles, vectorText } from './vectors.testutil.js';

function typeOfJson(o: Record<string, unknown>): StructType | undefined {
  if (typeof o.kind !== 'string' || typeof o.apiVersion !== 'string') return undefined;
  return resolveType({ apiVersion: o.apiVersion, kind: o.kind });
}

/** normalize + encodeJson of a vector file must give its exact bytes. */
function assertJsonFixedPoint(name: string, text: string, type: StructType): void {
  const r = normalize(JSON.parse(text), type);
  assert.deepEqual(r.unknownFields, [], `${name}: unknown fields`);
  const out = encodeJson(r.object);
  if (out !== text) {
    let i = 0;
    while (out[i] === text[i]) i++;
    assert.fail(`${name}: differs at ${i}\n want: ${text.slice(i - 60, i + 60)}\n got:  ${out.slice(i - 60, i + 60)}`);
  }
}

test('JSON: every object, list and response vector is a fixed point of normalize + encodeJson', () => {
  const files: string[] = [];
  for (const f of vectorFiles('objects')) if (f.endsWith('.json') && !f.includes('.request.')) files.push(`objects/${f}`);
  for (const f of vectorFiles('lists')) if (f.endsWith('.json') && !f.includes('.request.')) files.push(`lists/${f}`);
  for (const f of vectorFiles('managed-fields')) if (/^0.*\.json$/.test(f)) files.push(`managed-fields/${f}`);
  for (const v of ['v1.32.4', 'v1.35.2'])
    for (const f of vectorFiles('requests', v)) if (f.endsWith('.response.json')) files.push(`requests/${v}/${f}`);
  for (const f of vectorFiles('tables')) if (f.endsWith('.json')) files.push(`tables/${f}`);
  let checked = 0;
  const skipped: string[] = [];
  for (const f of files) {
    const text = vectorText(f);
    const type = typeOfJson(JSON.parse(text) as Record<string, unknown>);
    if (!type) {
      skipped.push(f);
      continue;
    }
    assertJsonFixedPoint(f, text, type);
    checked++;
  }
  assert.ok(checked >= 100, `only ${checked} JSON vectors checked (skipped: ${skipped.join(', ')})`);
});

test('JSON: Status and object bodies of the error dumps', () => {
  let checked = 0;
  for (const f of vectorFiles('errors')) {
    if (!f.endsWith('.txt')) continue;
    const { body } = dumpBody('errors', f);
    if (!body.startsWith('{')) continue;
    const o = JSON.parse(body) as Record<string, unknown>;
    const type = typeOfJson(o);
    if (!type) continue;
    if (body.endsWith('}\n')) assertJsonFixedPoint(f, body, type);
    else assert.equal(JSON.stringify(normalize(o, type).object, null, 2), body, f);
    checked++;
  }
  assert.ok(checked >= 40, `only ${checked} error bodies checked`);
});

test('JSON watch streams: every event line re-encodes to the same bytes', () => {
  for (const f of ['pods.watch.jsonl', 'pods.watch-bookmark.jsonl']) {
    const lines = vectorText('watch', f).split('\n').filter((l) => l !== '');
    assert.ok(lines.length > 0);
    for (const line of lines) {
      const ev = decodeWatchEventJson(line, (tm) => resolveType(tm));
      assert.equal(encodeWatchEventJson(ev.type, ev.object), line + '\n', `${f}: ${line.slice(0, 80)}`);
    }
  }
});

const pbVectors = [
  ...vectorFiles('objects')
    .filter((f) => f.endsWith('.pb'))
    .map((f) => `objects/${f}`),
  'lists/PodList.pb',
];

test('protobuf: every object vector decodes to its .pb.json', () => {
  let checked = 0;
  for (const f of pbVectors) {
    const bytes = vectorBytes(f);
    const env = readEnvelope(bytes);
    const type = resolveType(env.typeMeta);
    if (!type) continue;
    const { object } = decodeProtobuf(bytes, type);
    const want = JSON.parse(vectorText(f + '.json')) as Record<string, unknown>;
    if (env.typeMeta.kind === 'StatefulSet') {
      // The server sets apiVersion/kind of volumeClaimTemplates when serving; protobuf has no field for them.
      for (const t of (want.spec as { volumeClaimTemplates: Array<Record<string, unknown>> }).volumeClaimTemplates) {
        delete t.apiVersion;
        delete t.kind;
      }
    }
    assert.deepEqual(object, want, f);
    checked++;
  }
  assert.equal(checked, pbVectors.length, 'every kind with a .pb vector is declared');
});

test('protobuf: encoding each .pb.json gives the .pb bytes (v1.26 field set)', () => {
  for (const f of pbVectors) {
    const bytes = vectorBytes(f);
    const type = resolveType(readEnvelope(bytes).typeMeta)!;
    const json = JSON.parse(vectorText(f + '.json')) as Record<string, unknown>;
    const encoded = encodeProtobuf(normalize(json, type).object, v126View(type));
    if (f === 'objects/ControllerRevision.pb') {
      // Go keeps a RawExtension's bytes as the client sent them (pretty-printed here); from the
      // compact JSON only the same object, not the same whitespace, can be produced.
      assert.deepEqual(decodeProtobuf(encoded, type).object, decodeProtobuf(bytes, type).object, f);
      continue;
    }
    assertBytes(f, encoded, bytes);
  }
});

test('protobuf: decode → encode reproduces every vector byte for byte', () => {
  for (const f of pbVectors) {
    const bytes = vectorBytes(f);
    const type = resolveType(readEnvelope(bytes).typeMeta)!;
    const { object, typeMeta } = decodeProtobuf(bytes, type);
    assertBytes(f, encodeProtobuf(object, v126View(type), typeMeta), bytes);
  }
});

test('protobuf: the request bodies kubectl sent (and the responses) decode and re-encode identically', () => {
  let checked = 0;
  const undeclared = new Set<string>();
  for (const v of ['v1.32.4', 'v1.35.2']) {
    for (const f of vectorFiles('requests', v)) {
      if (!f.endsWith('.bin')) continue;
      const bytes = vectorBytes('requests', v, f);
      const env = readEnvelope(bytes);
      const type = resolveType(env.typeMeta);
      if (!type) {
        undeclared.add(`${env.typeMeta.apiVersion} ${env.typeMeta.kind}`);
        continue;
      }
      const { object, typeMeta } = decodeProtobuf(bytes, type);
      assert.equal(typeMeta.kind, env.typeMeta.kind);
      assertBytes(`${v}/${f}`, encodeProtobuf(object, v126View(type), typeMeta), bytes);
      checked++;
    }
  }
  // authorization.k8s.io SelfSubjectAccessReview (kubectl auth can-i) is not declared yet.
  assert.ok(checked >= 22, `only ${checked} request bodies checked; undeclared: ${[...undeclared].join(', ')}`);
});

test('protobuf: PartialObjectMetadataList (tables/pods.partialobjectmetadatalist.pb) round-trips', () => {
  const bytes = vectorBytes('tables', 'pods.partialobjectmetadatalist.pb');
  const { object, typeMeta } = decodeProtobuf(bytes, meta.PartialObjectMetadataList);
  assert.equal(typeMeta.kind, 'PartialObjectMetadataList');
  assert.ok(Array.isArray((object as { items: unknown[] }).items));
  assertBytes('partialobjectmetadatalist', encodeProtobuf(object, meta.PartialObjectMetadataList, typeMeta), bytes);
});

test('protobuf watch streams: incremental frame decoding (any chunking) and byte-identical re-encoding', () => {
  for (const f of ['pods.watch.pb', 'pods.watch-bookmark.pb']) {
    const bytes = vectorBytes('watch', f);
    for (const chunk of [1, 3, 7, 64, bytes.length]) {
      const dec = new WatchFrameDecoder();
      const frames = [];
      for (let i = 0; i < bytes.length; i += chunk) frames.push(...dec.push(bytes.subarray(i, i + chunk)));
      dec.end();
      const expected = f === 'pods.watch.pb' ? ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'] : ['BOOKMARK', 'BOOKMARK'];
      assert.deepEqual(
        frames.map((fr) => fr.type),
        expected,
        `${f} in chunks of ${chunk}`,
      );
      const out = frames.map((fr) => {
        const ev = decodeWatchFrame(fr, (tm) => resolveType(tm));
        const type = resolveType(ev.typeMeta)!;
        return encodeWatchFrame(ev.type, encodeProtobuf(ev.object, v126View(type), ev.typeMeta));
      });
      assertBytes(f, Buffer.concat(out), bytes);
    }
  }
  // BOOKMARK objects decode to what the JSON stream shows for them.
  const fr = new WatchFrameDecoder().push(vectorBytes('watch', 'pods.watch-bookmark.pb'))[0]!;
  const ev = decodeWatchFrame(fr, (tm) => resolveType(tm));
  assert.equal(
    JSON.stringify(ev.object),
    '{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"5893","creationTimestamp":null},"spec":{"containers":null},"status":{}}',
  );
});

function assertBytes(name: string, got: Uint8Array, want: Uint8Array): void {
  if (Buffer.compare(Buffer.from(got), Buffer.from(want)) === 0) return;
  let i = 0;
  while (got[i] === want[i]) i++;
  assert.fail(
    `${name}: bytes differ at ${i} (lengths ${got.length} vs ${want.length})\n want ${Buffer.from(want.subarray(Math.max(0, i - 16), i + 16)).toString('hex')}\n got  ${Buffer.from(got.subarray(Math.max(0, i - 16), i + 16)).toString('hex')}`,
  );
}
