// Kubernetes protobuf bodies (the k8s\0 envelope around a Pod): valid encodings cut short, with
// lengths that lie, unknown fields of every wire type, deeply nested groups and messages, and raw
// bytes after the magic. Each decodes or is refused with a 4xx Status; a decoded object encoded
// again decodes to the same object.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findResource } from '../../../src/api/kinds.js';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC } from '../../../src/machinery/codec/protobuf.js';
import { resultOrRefusal } from '../expect.js';
import type { FuzzTarget } from '../target.js';

const pods = findResource('', 'v1', 'pods')!.type;

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
const tag = (field: number, wire: number): number[] => varint(field * 8 + wire);

const pod = fc
  .record({
    name: fc.string({ maxLength: 10 }),
    labels: fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
    images: fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 3 }),
    priority: fc.option(fc.integer(), { nil: undefined }),
  })
  .map(({ name, labels, images, priority }) =>
    encodeProtobuf(
      { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { priority, containers: images.map((image, i) => ({ name: `c${i}`, image })) } },
      pods,
      { apiVersion: 'v1', kind: 'Pod' },
    ),
  );

/** A field the schema does not have, of any wire type (groups included), possibly malformed. */
const unknownField = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 1 << 20 }), fc.nat()).map(([f, v]) => [...tag(f, 0), ...varint(v)]),
  fc.tuple(fc.integer({ min: 1, max: 1 << 20 }), fc.uint8Array({ maxLength: 20 })).map(([f, b]) => [...tag(f, 2), ...varint(b.length), ...b]),
  fc.integer({ min: 1, max: 1 << 20 }).map((f) => [...tag(f, 1), 1, 2, 3, 4, 5, 6, 7, 8]),
  fc.integer({ min: 1, max: 1 << 20 }).map((f) => [...tag(f, 5), 1, 2, 3, 4]),
  fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100_000 }), fc.boolean()).map(([f, depth, closed]) => [
    ...Array<number[]>(depth).fill(tag(f, 3)).flat(),
    ...(closed ? Array<number[]>(depth).fill(tag(f, 4)).flat() : []),
  ]),
  fc.integer({ min: 6, max: 7 }).map((wire) => tag(99, wire)),
);

/** Messages nested `depth` deep in field 1 (as ObjectMeta inside a Pod inside ...). */
const nestedMessages = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 15 })).map(([depth, field]) => {
  // sizes[i]: the length of the message i levels in; written outermost first.
  const t = tag(field, 2);
  const sizes = [0];
  for (let i = 1; i < depth; i++) sizes.push(t.length + varint(sizes[i - 1]!).length + sizes[i - 1]!);
  const out: number[] = [];
  for (let i = depth - 1; i >= 0; i--) out.push(...t, ...varint(sizes[i]!));
  return out;
});

type Mutation = { at: number; kind: 'truncate' } | { at: number; kind: 'insert'; bytes: number[] } | { at: number; kind: 'overwrite'; byte: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), kind: fc.constant('truncate' as const) }),
  fc.record({ at: fc.nat(), kind: fc.constant('insert' as const), bytes: fc.oneof(unknownField, nestedMessages, fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 })) }),
  // a length or tag byte changed: lengths that lie
  fc.record({ at: fc.nat(), kind: fc.constant('overwrite' as const), byte: fc.oneof(fc.constantFrom(0x00, 0x7f, 0x80, 0xff), fc.integer({ min: 0, max: 255 })) }),
);

function mutate(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let b = Buffer.from(bytes);
  for (const m of mutations) {
    // Keep the magic: past it is where the decoder's work is.
    const at = 4 + (b.length > 4 ? m.at % (b.length - 4) : 0);
    if (m.kind === 'truncate') b = b.subarray(0, at);
    else if (m.kind === 'insert') b = Buffer.concat([b.subarray(0, at), Buffer.from(m.bytes), b.subarray(at)]);
    else if (at < b.length) b[at] = m.byte;
  }
  return new Uint8Array(b);
}

export const protobufTarget: FuzzTarget<Uint8Array> = {
  name: 'protobuf',
  input: fc.oneof(
    { weight: 6, arbitrary: fc.tuple(pod, fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([b, ms]) => mutate(b, ms)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => new Uint8Array(Buffer.concat([PROTOBUF_MAGIC, b]))) },
    { weight: 1, arbitrary: pod },
  ),
  testRuns: 10_000,
  check(bytes) {
    const decoded = resultOrRefusal(() => decodeProtobuf(bytes, pods));
    if (!decoded) return;
    const again = decodeProtobuf(encodeProtobuf(decoded.object, pods, decoded.typeMeta), pods);
    assert.deepEqual(again.object, decoded.object);
  },
};
