// `npm run bench -- codec`: decode + encode of a Pod in kubelite's JSON path (decodeJson with Warn
// field validation, i.e. JSON.parse + duplicate-key count + normalize; then encodeJson) and its
// protobuf path, side by side with plain JSON.parse / JSON.stringify of the same object.
// Targets: kubelite JSON within 1.5× of plain JSON; protobuf at least as fast as kubelite JSON.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pod } from '../src/api/core/v1/pod.js';
import { decodeJson, encodeJson } from '../src/machinery/codec/json.js';
import { decodeProtobuf, encodeProtobuf } from '../src/machinery/codec/protobuf.js';
import type { BenchReport, BenchRow } from './report.js';
import { TESTDATA } from '../test/support/vectors.js';

const SECONDS = Number(process.env.KUBELITE_BENCH_SECONDS ?? 2);

/**
 * Operations per second of each function: warmed up, then measured in ROUNDS short rounds taken in
 * turn (so that load from other processes on the machine hits all alike), best round kept.
 */
function measure<K extends string>(fns: Record<K, () => unknown>): Record<K, number> {
  const keys = Object.keys(fns) as K[];
  const best = {} as Record<K, number>;
  for (const k of keys) {
    for (let i = 0; i < 3000; i++) fns[k]();
    best[k] = 0;
  }
  const rounds = 5;
  const slice = (SECONDS * 1000) / rounds;
  for (let r = 0; r < rounds; r++) {
    for (const k of keys) {
      const fn = fns[k];
      let n = 0;
      const t0 = performance.now();
      let t = t0;
      while (t - t0 < slice) {
        for (let i = 0; i < 50; i++) fn();
        n += 50;
        t = performance.now();
      }
      best[k] = Math.max(best[k], n / ((t - t0) / 1000));
    }
  }
  return best;
}

interface Sample {
  label: string;
  json: string;
  pb: Buffer;
}

function samples(): Sample[] {
  // A ~2 KB Pod as the API server stores it (managedFields, defaulted spec, status): the first
  // item of lists/PodList.pb.json. And the 19 KB "rich" Pod of objects/Pod.pb.json.
  const list = JSON.parse(readFileSync(join(TESTDATA, 'lists', 'PodList.pb.json'), 'utf8')) as { items: object[] };
  const small = JSON.stringify({ kind: 'Pod', apiVersion: 'v1', ...list.items[0] });
  const rich = readFileSync(join(TESTDATA, 'objects', 'Pod.pb.json'), 'utf8').trimEnd();
  return [small, rich].map((json) => {
    const object = decodeJson(json, Pod).object;
    return { label: `${(Buffer.byteLength(json) / 1024).toFixed(1)} KB Pod`, json, pb: encodeProtobuf(object, Pod) };
  });
}

export async function run(_args: string[] = []): Promise<BenchReport> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  let sink: unknown;
  for (const s of samples()) {
    const plainObj = JSON.parse(s.json) as unknown;
    const ours = decodeJson(s.json, Pod).object;
    const decodeWarn = (): unknown => decodeJson(s.json, Pod, { fieldValidation: 'Warn' });
    const m = measure({
      plainDecode: () => (sink = JSON.parse(s.json)),
      plainEncode: () => (sink = JSON.stringify(plainObj)),
      plainBoth: () => (sink = JSON.stringify(JSON.parse(s.json))),
      jsonDecode: () => (sink = decodeWarn()),
      jsonEncode: () => (sink = encodeJson(ours)),
      jsonBoth: () => (sink = encodeJson(decodeJson(s.json, Pod, { fieldValidation: 'Warn' }).object)),
      pbDecode: () => (sink = decodeProtobuf(s.pb, Pod)),
      pbEncode: () => (sink = encodeProtobuf(ours, Pod)),
      pbBoth: () => (sink = encodeProtobuf(decodeProtobuf(s.pb, Pod).object, Pod)),
    });
    const plain = { decode: m.plainDecode, encode: m.plainEncode, both: m.plainBoth };
    const json = { decode: m.jsonDecode, encode: m.jsonEncode, both: m.jsonBoth };
    const pb = { decode: m.pbDecode, encode: m.pbEncode, both: m.pbBoth };
    const values = (k: 'decode' | 'encode' | 'both'): Record<string, number> => ({
      'plain JSON': Math.round(plain[k]),
      'kubelite JSON': Math.round(json[k]),
      'kubelite protobuf': Math.round(pb[k]),
    });
    const primary = rows.length === 0;
    rows.push({ metric: `${s.label}: decode`, unit: 'ops/s', values: values('decode') });
    rows.push({ metric: `${s.label}: encode`, unit: 'ops/s', values: values('encode') });
    rows.push({
      metric: `${s.label}: decode + encode`,
      unit: 'ops/s',
      values: values('both'),
      ...(primary
        ? {
            target: 'JSON ≥ plain / 1.5; protobuf ≥ JSON',
            met: json.both * 1.5 >= plain.both && pb.both >= json.both,
          }
        : {}),
    });
    notes.push(
      `${s.label} (${s.json.length} bytes JSON, ${s.pb.length} bytes protobuf): kubelite JSON decode+encode is ${(plain.both / json.both).toFixed(2)}× the time of plain JSON.parse+stringify; protobuf decode+encode is ${(pb.both / json.both).toFixed(2)}× the speed of kubelite JSON.`,
    );
  }
  void sink;
  notes.push(`Node ${process.version}; best of 5 interleaved rounds, ${SECONDS}s per figure (KUBELITE_BENCH_SECONDS).`);
  return { name: 'codec', columns: ['plain JSON', 'kubelite JSON', 'kubelite protobuf'], rows, notes };
}

// Run directly: node dist/bench/codec.js
if (process.argv[1]?.endsWith('/bench/codec.js')) {
  const { formatTable } = await import('./report.js');
  process.stdout.write(`${formatTable(await run(process.argv.slice(2)))}\n`);
}
