// CPU profiles of this process for /debug/pprof/profile: V8's sampling profiler (node:inspector,
// in process) converted to pprof's profile.proto (gzipped, as Go's net/http/pprof serves it), so
// `go tool pprof http://host:port/debug/pprof/profile?seconds=10` and speedscope open it.
// A small hand-written encoder of the profile.proto subset that CPU profiles use.
import { Session } from 'node:inspector/promises';
import { gzipSync } from 'node:zlib';

/** V8's Profiler.Profile (the .cpuprofile JSON). */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number; columnNumber: number };
    hitCount?: number;
    children?: number[];
  }[];
  startTime: number; // µs
  endTime: number; // µs
  samples?: number[];
  timeDeltas?: number[];
}

let busy = false;

/** Samples the CPU of this process for `seconds` (one profile at a time, as Go). */
export async function takeCpuProfile(seconds: number, signal?: AbortSignal, samplingIntervalUs = 1000): Promise<CpuProfile> {
  if (busy) throw new Error('cpu profiling already in use');
  busy = true;
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await session.post('Profiler.start');
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, seconds * 1000);
      function done(): void {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    return profile;
  } finally {
    session.disconnect();
    busy = false;
  }
}

/** A protobuf writer for the few wire types profile.proto uses. */
class ProtoWriter {
  private chunks: number[] = [];

  private varint(v: bigint | number): void {
    let n = BigInt.asUintN(64, BigInt(v));
    while (n >= 0x80n) {
      this.chunks.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.chunks.push(Number(n));
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, v: number | bigint): void {
    if (v === 0 || v === 0n) return;
    this.key(field, 0);
    this.varint(v);
  }

  bool(field: number, v: boolean): void {
    if (v) this.int(field, 1);
  }

  bytes(field: number, b: Uint8Array): void {
    this.key(field, 2);
    this.varint(b.length);
    for (const x of b) this.chunks.push(x);
  }

  string(field: number, s: string): void {
    // string_table entries are written even when empty (index 0 must be "")
    this.bytes(field, Buffer.from(s, 'utf8'));
  }

  message(field: number, build: (w: ProtoWriter) => void): void {
    const w = new ProtoWriter();
    build(w);
    this.bytes(field, w.finish());
  }

  packed(field: number, values: (number | bigint)[]): void {
    if (values.length === 0) return;
    const w = new ProtoWriter();
    for (const v of values) w.varint(v);
    this.bytes(field, w.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

type ProfileNode = CpuProfile['nodes'][number];

interface TreeMeta {
  sampleTypes: [string, string][];
  periodType: [string, string];
  period: number;
  timeNanos: bigint;
  durationNanos: bigint;
}

/** Encodes a V8 call tree (nodes with children ids) and per-node sample values as a pprof Profile. */
function encodeTree(nodes: ProfileNode[], values: Map<number, number[]>, meta: TreeMeta): Uint8Array {
  const strings: string[] = [''];
  const stringIndex = new Map<string, number>([['', 0]]);
  const str = (s: string): number => {
    let i = stringIndex.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIndex.set(s, i);
    }
    return i;
  };

  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // one function per (name, url, line of definition), one location per node's frame
  const functions: { id: number; name: number; filename: number; startLine: number }[] = [];
  const functionIds = new Map<string, number>();
  const locationOfNode = new Map<number, number>();
  const locations: { id: number; functionId: number; line: number }[] = [];
  const locationIds = new Map<string, number>();
  for (const n of nodes) {
    const f = n.callFrame;
    const name = f.functionName || '(anonymous)';
    const fkey = `${name}\0${f.url}\0${f.lineNumber}`;
    let fid = functionIds.get(fkey);
    if (fid === undefined) {
      fid = functions.length + 1;
      functions.push({ id: fid, name: str(name), filename: str(f.url), startLine: f.lineNumber + 1 });
      functionIds.set(fkey, fid);
    }
    const lkey = `${fid}:${f.lineNumber}:${f.columnNumber}`;
    let lid = locationIds.get(lkey);
    if (lid === undefined) {
      lid = locations.length + 1;
      locations.push({ id: lid, functionId: fid, line: f.lineNumber + 1 });
      locationIds.set(lkey, lid);
    }
    locationOfNode.set(n.id, lid);
  }

  const w = new ProtoWriter();
  for (const [type, unit] of meta.sampleTypes) {
    const t = str(type);
    const u = str(unit);
    w.message(1, (m) => {
      m.int(1, t);
      m.int(2, u);
    });
  }
  for (const [id, vals] of values) {
    if (!byId.has(id)) continue;
    const stack: number[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      if (n.callFrame.functionName === '(root)' && parent.get(cur) === undefined) break;
      stack.push(locationOfNode.get(cur)!);
    }
    if (stack.length === 0) continue;
    w.message(2, (m) => {
      m.packed(1, stack);
      m.packed(2, vals.map((v) => Math.round(v)));
    });
  }
  for (const l of locations) {
    w.message(4, (m) => {
      m.int(1, l.id);
      m.message(4, (line) => {
        line.int(1, l.functionId);
        line.int(2, l.line);
      });
    });
  }
  for (const f of functions) {
    w.message(5, (m) => {
      m.int(1, f.id);
      m.int(2, f.name);
      m.int(3, f.name);
      m.int(4, f.filename);
      m.int(5, f.startLine);
    });
  }
  const pt = str(meta.periodType[0]);
  const pu = str(meta.periodType[1]);
  for (const s of strings) w.string(6, s);
  w.int(9, meta.timeNanos);
  w.int(10, meta.durationNanos);
  w.message(11, (m) => {
    m.int(1, pt);
    m.int(2, pu);
  });
  w.int(12, meta.period);
  return w.finish();
}

/** Something that waited, how often, and for how long in all (a block profile's sample). */
export interface Wait {
  what: string;
  count: number;
  delayNanos: number;
}

/** A block profile (contentions, delay) with one single-frame sample per wait, gzipped as Go serves it. */
export function waitsToPprof(waits: readonly Wait[], sinceMs: number, nowMs = Date.now()): Buffer {
  const root: ProfileNode = { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [] };
  const nodes: ProfileNode[] = [root];
  const values = new Map<number, number[]>();
  for (const w of waits) {
    const id = nodes.length + 1;
    nodes.push({ id, callFrame: { functionName: w.what, scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 } });
    root.children!.push(id);
    values.set(id, [w.count, w.delayNanos]);
  }
  const encoded = encodeTree(nodes, values, {
    sampleTypes: [
      ['contentions', 'count'],
      ['delay', 'nanoseconds'],
    ],
    periodType: ['contentions', 'count'],
    period: 1,
    timeNanos: BigInt(Math.round(sinceMs)) * 1_000_000n,
    durationNanos: BigInt(Math.max(0, Math.round(nowMs - sinceMs))) * 1_000_000n,
  });
  return gzipSync(encoded);
}

/** Converts a V8 CPU profile to an (uncompressed) pprof Profile message. */
export function cpuProfileToPprof(p: CpuProfile, samplingIntervalUs = 1000, wallStartMs?: number): Uint8Array {
  // samples: count and time per leaf node (time from timeDeltas when present)
  const values = new Map<number, number[]>();
  const add = (id: number, count: number, us: number): void => {
    const v = values.get(id) ?? [0, 0];
    v[0]! += count;
    v[1]! += us * 1000;
    values.set(id, v);
  };
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  if (samples.length > 0) {
    // the time of sample i is the delta to the next one
    for (let i = 0; i < samples.length; i++) add(samples[i]!, 1, Math.max(0, deltas[i + 1] ?? samplingIntervalUs));
  } else {
    for (const n of p.nodes) if (n.hitCount) add(n.id, n.hitCount, n.hitCount * samplingIntervalUs);
  }
  return encodeTree(p.nodes, values, {
    sampleTypes: [
      ['samples', 'count'],
      ['cpu', 'nanoseconds'],
    ],
    periodType: ['cpu', 'nanoseconds'],
    period: samplingIntervalUs * 1000,
    // V8's times are on a monotonic clock; the wall-clock start is estimated from the end (now)
    timeNanos: BigInt(Math.round(wallStartMs ?? Date.now() - (p.endTime - p.startTime) / 1000)) * 1_000_000n,
    durationNanos: BigInt(Math.max(0, Math.round(p.endTime - p.startTime))) * 1000n,
  });
}

/** V8's sampling heap profile (HeapProfiler.getSamplingProfile). */
export interface HeapProfile {
  head: HeapNode;
  samples?: { size: number; nodeId: number; ordinal: number }[];
}
interface HeapNode {
  id: number;
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

/** Converts a sampling heap profile to pprof (inuse_objects/count, inuse_space/bytes, as Go's heap profile). */
export function heapProfileToPprof(p: HeapProfile, samplingIntervalBytes: number, nowMs = Date.now()): Uint8Array {
  const nodes: ProfileNode[] = [];
  const values = new Map<number, number[]>();
  const walk = (n: HeapNode): void => {
    nodes.push({ id: n.id, callFrame: n.callFrame, children: n.children.map((c) => c.id) });
    for (const c of n.children) walk(c);
  };
  walk(p.head);
  if (p.samples && p.samples.length > 0) {
    for (const s of p.samples) {
      const v = values.get(s.nodeId) ?? [0, 0];
      v[0]! += 1;
      v[1]! += s.size;
      values.set(s.nodeId, v);
    }
  } else {
    const visit = (n: HeapNode): void => {
      if (n.selfSize > 0) values.set(n.id, [1, n.selfSize]);
      n.children.forEach(visit);
    };
    visit(p.head);
  }
  return encodeTree(nodes, values, {
    sampleTypes: [
      ['inuse_objects', 'count'],
      ['inuse_space', 'bytes'],
    ],
    periodType: ['space', 'bytes'],
    period: samplingIntervalBytes,
    timeNanos: BigInt(Math.round(nowMs)) * 1_000_000n,
    durationNanos: 0n,
  });
}

const HEAP_SAMPLING_INTERVAL = 512 * 1024;
let heapSession: Promise<Session> | undefined;
let heapUsers = 0;

/** Starts V8's sampling heap profiler for this process (cheap: one sample per 512 KiB allocated); counted. */
export function startHeapSampling(): Promise<Session> {
  heapUsers++;
  heapSession ??= (async () => {
    const s = new Session();
    s.connect();
    await s.post('HeapProfiler.enable');
    await s.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_INTERVAL });
    return s;
  })();
  return heapSession;
}

export function stopHeapSampling(): void {
  if (heapUsers > 0 && --heapUsers === 0 && heapSession) {
    const p = heapSession;
    heapSession = undefined;
    void p.then((s) => s.disconnect()).catch(() => {});
  }
}

/** The live heap as sampled since startHeapSampling, as gzipped pprof (Go's /debug/pprof/heap). */
export async function heapPprof(): Promise<Buffer> {
  const session = await (heapSession ?? startHeapSampling());
  const { profile } = (await session.post('HeapProfiler.getSamplingProfile')) as { profile: HeapProfile };
  return gzipSync(heapProfileToPprof(profile, HEAP_SAMPLING_INTERVAL));
}

/** The gzipped pprof bytes Go's /debug/pprof/profile serves. */
export function encodePprof(p: CpuProfile, samplingIntervalUs = 1000, wallStartMs?: number): Buffer {
  return gzipSync(cpuProfileToPprof(p, samplingIntervalUs, wallStartMs));
}
