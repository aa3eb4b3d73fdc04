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

/** Converts a V8 CPU profile to an (uncompressed) pprof Profile message. */
export function cpuProfileToPprof(p: CpuProfile, samplingIntervalUs = 1000, wallStartMs?: number): Uint8Array {
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

  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // one function per (name, url, line of definition), one location per node's frame
  const functions: { id: number; name: number; filename: number; startLine: number }[] = [];
  const functionIds = new Map<string, number>();
  const locationOfNode = new Map<number, number>();
  const locations: { id: number; functionId: number; line: number }[] = [];
  const locationIds = new Map<string, number>();
  for (const n of p.nodes) {
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

  // samples: count and time per leaf node (time from timeDeltas when present)
  const counts = new Map<number, number>();
  const times = new Map<number, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  if (samples.length > 0) {
    for (let i = 0; i < samples.length; i++) {
      const id = samples[i]!;
      // the time of sample i is the delta to the next one
      const dt = deltas[i + 1] ?? samplingIntervalUs;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      times.set(id, (times.get(id) ?? 0) + Math.max(0, dt));
    }
  } else {
    for (const n of p.nodes) {
      if (n.hitCount) {
        counts.set(n.id, n.hitCount);
        times.set(n.id, n.hitCount * samplingIntervalUs);
      }
    }
  }

  const w = new ProtoWriter();
  const samplesType = str('samples');
  const countUnit = str('count');
  const cpuType = str('cpu');
  const nsUnit = str('nanoseconds');
  w.message(1, (m) => {
    m.int(1, samplesType);
    m.int(2, countUnit);
  });
  w.message(1, (m) => {
    m.int(1, cpuType);
    m.int(2, nsUnit);
  });
  for (const [id, count] of counts) {
    const node = byId.get(id);
    if (!node) continue;
    const stack: number[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      if (n.callFrame.functionName === '(root)' && parent.get(cur) === undefined) break;
      stack.push(locationOfNode.get(cur)!);
    }
    if (stack.length === 0) continue;
    w.message(2, (m) => {
      m.packed(1, stack);
      m.packed(2, [count, Math.round((times.get(id) ?? 0) * 1000)]);
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
  for (const s of strings) w.string(6, s);
  // V8's times are on a monotonic clock; the wall-clock start is estimated from the end (now)
  w.int(9, BigInt(Math.round(wallStartMs ?? Date.now() - (p.endTime - p.startTime) / 1000)) * 1_000_000n);
  w.int(10, BigInt(Math.max(0, Math.round(p.endTime - p.startTime))) * 1000n);
  w.message(11, (m) => {
    m.int(1, cpuType);
    m.int(2, nsUnit);
  });
  w.int(12, samplingIntervalUs * 1000);
  return w.finish();
}

/** The gzipped pprof bytes Go's /debug/pprof/profile serves. */
export function encodePprof(p: CpuProfile, samplingIntervalUs = 1000, wallStartMs?: number): Buffer {
  return gzipSync(cpuProfileToPprof(p, samplingIntervalUs, wallStartMs));
}
