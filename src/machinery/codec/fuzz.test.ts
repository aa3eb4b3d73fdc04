// Fuzzing the decoders with mutated vectors: bit flips, truncation, byte insertion and deletion,
// chunk duplication and splicing of two inputs. Every input must decode (and the result re-encode)
// or fail with a StatusError; nothing else may be thrown, and no input may take long.
// KUBELITE_FUZZ_ITERATIONS (default 100000) inputs per decoder; KUBELITE_FUZZ_SEED picks the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StructType } from '../../api/schema/dsl.js';
import { StatusError } from '../status.js';
import { decodeJson, encodeJson } from './json.js';
import { decodeProtobuf, encodeProtobuf, readEnvelope } from './protobuf.js';
import { decodeWatchFrame, WatchFrameDecoder } from './watch.js';
import { decodeYaml, encodeYaml } from './yaml.js';
import { resolveType, vectorBytes, vectorFiles } from './vectors.testutil.js';

const ITERATIONS = Number(process.env.KUBELITE_FUZZ_ITERATIONS ?? 100_000);
const SEED = Number(process.env.KUBELITE_FUZZ_SEED ?? 0x6b387300);
/** A single input taking longer than this is a failure ("never hang"). */
const SLOW_MS = 2000;

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INTERESTING = Buffer.from('{}[]":,\\ntfe0-9.\u0000\u00ff\u0080\u007f \t\n#&*!|>-?\'<', 'latin1');

interface Seed {
  name: string;
  bytes: Buffer;
  type?: StructType;
}

function mutate(rand: () => number, seeds: Seed[], input: Buffer): Buffer {
  const int = (n: number): number => Math.floor(rand() * n);
  let b = input;
  const rounds = 1 + int(3);
  for (let r = 0; r < rounds; r++) {
    const pos = b.length === 0 ? 0 : int(b.length);
    switch (int(7)) {
      case 0: {
        // bit flips
        const c = Buffer.from(b);
        for (let k = 1 + int(4); k > 0 && c.length > 0; k--) c[int(c.length)]! ^= 1 << int(8);
        b = c;
        break;
      }
      case 1: // truncation
        b = b.subarray(0, pos);
        break;
      case 2: {
        // insertion of interesting or random bytes
        const n = 1 + int(4);
        const ins = Buffer.alloc(n);
        for (let k = 0; k < n; k++) ins[k] = rand() < 0.7 ? INTERESTING[int(INTERESTING.length)]! : int(256);
        b = Buffer.concat([b.subarray(0, pos), ins, b.subarray(pos)]);
        break;
      }
      case 3: // deletion of a range
        b = Buffer.concat([b.subarray(0, pos), b.subarray(Math.min(b.length, pos + 1 + int(16)))]);
        break;
      case 4: {
        // duplicate a chunk in place (repeated keys, deeper nesting, repeated fields)
        const len = 1 + int(64);
        const chunk = b.subarray(pos, pos + len);
        const times = 1 + int(rand() < 0.05 ? 200 : 3);
        b = Buffer.concat([b.subarray(0, pos), ...Array<Buffer>(times + 1).fill(chunk), b.subarray(pos + len)]);
        break;
      }
      case 5: {
        // splice with another seed
        const other = seeds[int(seeds.length)]!.bytes;
        b = Buffer.concat([b.subarray(0, pos), other.subarray(int(other.length))]);
        break;
      }
      default: {
        // overwrite a byte with an interesting one
        const c = Buffer.from(b);
        if (c.length > 0) c[pos] = INTERESTING[int(INTERESTING.length)]!;
        b = c;
      }
    }
  }
  return b;
}

interface FuzzStats {
  decoded: number;
  rejected: number;
  slowestMs: number;
}

function fuzz(name: string, seeds: Seed[], run: (input: Buffer, seed: Seed) => void, seedOffset: number): FuzzStats {
  const rand = rng(SEED + seedOffset);
  const stats: FuzzStats = { decoded: 0, rejected: 0, slowestMs: 0 };
  for (let i = 0; i < ITERATIONS; i++) {
    const seed = seeds[Math.floor(rand() * seeds.length)]!;
    const input = mutate(rand, seeds, seed.bytes);
    const t0 = performance.now();
    try {
      run(input, seed);
      stats.decoded++;
    } catch (e) {
      if (!(e instanceof StatusError) || (e.code !== 400 && e.code !== 413)) {
        assert.fail(
          `${name}: input #${i} (seed ${SEED}, from ${seed.name}) threw ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\ninput (base64): ${input.toString('base64')}`,
        );
      }
      stats.rejected++;
    }
    const ms = performance.now() - t0;
    if (ms > stats.slowestMs) stats.slowestMs = ms;
    if (ms > SLOW_MS) assert.fail(`${name}: input #${i} took ${ms.toFixed(0)} ms\ninput (base64): ${input.toString('base64')}`);
  }
  return stats;
}

/** Vectors up to `max` bytes (the fuzzers' time goes where the parsers are most intricate). */
function jsonSeeds(max: number): Seed[] {
  const out: Seed[] = [];
  const add = (dir: string, f: string): void => {
    const bytes = vectorBytes(dir, f);
    if (bytes.length > max) return;
    let o: { apiVersion?: unknown; kind?: unknown };
    try {
      o = JSON.parse(bytes.toString('utf8')) as typeof o;
    } catch {
      return;
    }
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') return;
    const type = resolveType({ apiVersion: o.apiVersion, kind: o.kind });
    if (type) out.push({ name: `${dir}/${f}`, bytes, type });
  };
  for (const f of vectorFiles('objects')) if (f.endsWith('.json')) add('objects', f);
  for (const f of vectorFiles('lists')) if (f.endsWith('.json')) add('lists', f);
  for (const f of vectorFiles('errors')) if (f.endsWith('.request.json')) add('errors', f);
  return out;
}

test(`fuzz: JSON decoder, ${ITERATIONS} mutated inputs`, () => {
  const seeds = jsonSeeds(8192);
  assert.ok(seeds.length > 20);
  const stats = fuzz(
    'json',
    seeds,
    (input, seed) => {
      const r = decodeJson(input, seed.type!, { fieldValidation: input.length % 2 === 0 ? 'Warn' : 'Strict' });
      encodeJson(r.object);
      encodeProtobuf(r.object, seed.type!);
    },
    1,
  );
  assert.ok(stats.decoded > 0 && stats.rejected > 0, JSON.stringify(stats));
});

test(`fuzz: YAML decoder, ${ITERATIONS} mutated inputs`, () => {
  const seeds: Seed[] = jsonSeeds(1000).map((s) => ({
    name: s.name + ' (as YAML)',
    bytes: Buffer.from(encodeYaml(JSON.parse(s.bytes.toString('utf8'))), 'utf8'),
    type: s.type!,
  }));
  const cm = resolveType({ apiVersion: 'v1', kind: 'ConfigMap' })!;
  seeds.push({ name: 'fieldvalidation yaml', bytes: vectorBytes('errors', 'fieldvalidation-strict-unknown-field-yaml.request.yaml'), type: cm });
  seeds.push({
    name: 'anchors',
    bytes: Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: &m\n  name: a\n  labels: {x: "1"}\ndata: &d\n  k: v\nbinaryData: {}\n<<: {immutable: yes}\n'),
    type: cm,
  });
  const stats = fuzz(
    'yaml',
    seeds,
    (input, seed) => {
      const r = decodeYaml(input, seed.type!, { fieldValidation: 'Warn' });
      encodeYaml(r.object);
    },
    2,
  );
  assert.ok(stats.decoded > 0 && stats.rejected > 0, JSON.stringify(stats));
});

test(`fuzz: protobuf decoder (objects, lists, requests, watch frames), ${ITERATIONS} mutated inputs`, () => {
  const seeds: Seed[] = [];
  for (const f of vectorFiles('objects')) if (f.endsWith('.pb')) seeds.push({ name: `objects/${f}`, bytes: vectorBytes('objects', f) });
  seeds.push({ name: 'lists/PodList.pb', bytes: vectorBytes('lists', 'PodList.pb') });
  for (const v of ['v1.32.4', 'v1.35.2'])
    for (const f of vectorFiles('requests', v)) if (f.endsWith('.bin')) seeds.push({ name: `requests/${v}/${f}`, bytes: vectorBytes('requests', v, f) });
  const declared = seeds.filter((s) => resolveType(readEnvelope(s.bytes).typeMeta) !== undefined);
  const watch: Seed[] = ['pods.watch.pb', 'pods.watch-bookmark.pb'].map((f) => ({ name: `watch/${f}`, bytes: vectorBytes('watch', f) }));
  const resolve = (tm: { apiVersion: string; kind: string }): StructType | undefined => resolveType(tm);
  const all = [...declared, ...watch];
  const stats = fuzz(
    'protobuf',
    all,
    (input, seed) => {
      if (seed.name.startsWith('watch/')) {
        const dec = new WatchFrameDecoder();
        for (let i = 0; i < input.length; i += 97) {
          for (const frame of dec.push(input.subarray(i, i + 97))) {
            const ev = decodeWatchFrame(frame, resolve);
            encodeProtobuf(ev.object, resolve(ev.typeMeta)!, ev.typeMeta);
          }
        }
        dec.end();
        return;
      }
      const env = readEnvelope(input);
      const type = resolve(env.typeMeta) ?? resolve(readEnvelope(seed.bytes).typeMeta)!;
      const r = decodeProtobuf(input, type);
      encodeProtobuf(r.object, type, r.typeMeta);
      encodeJson(r.object);
    },
    3,
  );
  assert.ok(stats.decoded > 0 && stats.rejected > 0, JSON.stringify(stats));
});
