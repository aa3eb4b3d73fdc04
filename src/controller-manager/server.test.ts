import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { Gauge, Registry } from 'prom-client';
import protobuf from 'protobufjs';
import { startServer, type HealthCheck } from './server.js';
import { cpuProfileToPprof, type CpuProfile } from './pprof.js';
import { ContentionProfile } from './contention.js';
import { newRateLimitingQueue } from '../client/workqueue.js';

// profile.proto (github.com/google/pprof/proto/profile.proto), the part CPU profiles use
const PROFILE_PROTO = `
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1;
  repeated Sample sample = 2;
  repeated Location location = 4;
  repeated Function function = 5;
  repeated string string_table = 6;
  int64 time_nanos = 9;
  int64 duration_nanos = 10;
  ValueType period_type = 11;
  int64 period = 12;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2; }
message Location { uint64 id = 1; uint64 mapping_id = 2; uint64 address = 3; repeated Line line = 4; }
message Line { uint64 function_id = 1; int64 line = 2; }
message Function { uint64 id = 1; int64 name = 2; int64 system_name = 3; int64 filename = 4; int64 start_line = 5; }
`;
const Profile = protobuf.parse(PROFILE_PROTO).root.lookupType('perftools.profiles.Profile');

interface Decoded {
  sampleType: { type: number; unit: number }[];
  sample: { locationId: number[]; value: number[] }[];
  location: { id: number; line: { functionId: number; line: number }[] }[];
  function: { id: number; name: number; filename: number }[];
  stringTable: string[];
  period: number;
  durationNanos: number;
}

function decode(bytes: Uint8Array): Decoded {
  return Profile.toObject(Profile.decode(bytes), { longs: Number, defaults: true }) as unknown as Decoded;
}

async function withServer(profiling: boolean, fn: (url: string, state: { leading: string | undefined }) => Promise<void>): Promise<void> {
  const state = { leading: undefined as string | undefined };
  const checks = new Map<string, HealthCheck>([
    ['ping', () => undefined],
    ['leaderElection', () => state.leading],
  ]);
  const registry = new Registry();
  new Gauge({ name: 'leader_election_master_status', help: 'h', labelNames: ['name'], registers: [registry] }).set({ name: 'kube-controller-manager' }, 1);
  const s = await startServer({ address: '127.0.0.1', port: 0, profiling, checks, registry, configz: () => ({ KubeControllerManagerConfiguration: { port: 10252 } }) });
  try {
    await fn(s.url, state);
  } finally {
    await s.close();
  }
}

test('/healthz: ok, verbose, per check, failures', async () => {
  await withServer(false, async (url, state) => {
    let r = await fetch(`${url}/healthz`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'ok');
    r = await fetch(`${url}/healthz?verbose`);
    assert.equal(await r.text(), '[+]ping ok\n[+]leaderElection ok\nhealthz check passed\n');
    r = await fetch(`${url}/healthz/leaderElection`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), 'ok');
    state.leading = 'failed election to renew leadership on lease kube-system/kube-controller-manager';
    r = await fetch(`${url}/healthz`);
    assert.equal(r.status, 500);
    assert.equal(await r.text(), '[+]ping ok\n[-]leaderElection failed: reason withheld\nhealthz check failed\n');
    r = await fetch(`${url}/healthz?verbose`);
    assert.match(await r.text(), /\[-\]leaderElection failed: failed election to renew leadership on lease kube-system\/kube-controller-manager/);
    r = await fetch(`${url}/healthz/leaderElection`);
    assert.equal(r.status, 500);
    assert.match(await r.text(), /^internal server error: failed election/);
    r = await fetch(`${url}/healthz?exclude=leaderElection`);
    assert.equal(r.status, 200);
    r = await fetch(`${url}/healthz/nope`);
    assert.equal(r.status, 404);
  });
});

test('/metrics, /configz; /debug/pprof/ is off without --profiling', async () => {
  await withServer(false, async (url) => {
    let r = await fetch(`${url}/metrics`);
    assert.equal(r.status, 200);
    assert.match(await r.text(), /leader_election_master_status\{name="kube-controller-manager"\} 1/);
    r = await fetch(`${url}/configz`);
    assert.deepEqual(await r.json(), { KubeControllerManagerConfiguration: { port: 10252 } });
    r = await fetch(`${url}/debug/pprof/`);
    assert.equal(r.status, 404);
  });
});

test('/debug/pprof/profile: a gzipped pprof CPU profile of the process', async () => {
  await withServer(true, async (url) => {
    let r = await fetch(`${url}/debug/pprof/`);
    assert.equal(r.status, 200);
    assert.match(await r.text(), /profile\?seconds=30/);
    r = await fetch(`${url}/debug/pprof/profile?seconds=x`);
    assert.equal(r.status, 400);
    const pending = fetch(`${url}/debug/pprof/profile?seconds=1`);
    // burn some CPU while it samples
    const until = Date.now() + 600;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    r = await pending;
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/octet-stream');
    const raw = Buffer.from(await r.arrayBuffer());
    assert.equal(raw[0], 0x1f); // gzip
    const p = decode(gunzipSync(raw));
    const s = (i: number) => p.stringTable[i];
    assert.equal(p.stringTable[0], '');
    assert.deepEqual(p.sampleType.map((t) => `${s(t.type)}/${s(t.unit)}`), ['samples/count', 'cpu/nanoseconds']);
    assert.equal(p.period, 1_000_000);
    assert.ok(p.durationNanos >= 900_000_000, String(p.durationNanos));
    assert.ok(p.sample.length > 0);
    const locs = new Map(p.location.map((l) => [l.id, l]));
    const fns = new Map(p.function.map((f) => [f.id, f]));
    for (const sm of p.sample) {
      assert.equal(sm.value.length, 2);
      for (const id of sm.locationId) assert.ok(fns.has(locs.get(id)!.line[0]!.functionId));
    }
    const total = p.sample.reduce((a, sm) => a + sm.value[0]!, 0);
    assert.ok(total > 100, `samples: ${total}`);
    void x;
    r = await fetch(`${url}/debug/pprof/profile?seconds=0.2&format=cpuprofile`);
    const json = (await r.json()) as CpuProfile;
    assert.ok(Array.isArray(json.nodes) && json.nodes.length > 0);
  });
});

test('/debug/pprof/heap: the sampled live heap in pprof form', async () => {
  await withServer(true, async (url) => {
    const keep: number[][] = [];
    for (let i = 0; i < 2000; i++) keep.push(new Array(1000).fill(i));
    const r = await fetch(`${url}/debug/pprof/heap`);
    assert.equal(r.status, 200);
    const p = decode(gunzipSync(Buffer.from(await r.arrayBuffer())));
    const s = (i: number) => p.stringTable[i];
    assert.deepEqual(p.sampleType.map((t) => `${s(t.type)}/${s(t.unit)}`), ['inuse_objects/count', 'inuse_space/bytes']);
    assert.equal(p.period, 512 * 1024);
    assert.ok(p.sample.length > 0);
    assert.ok(keep.length === 2000);
  });
});

test('pprof encoder: stacks leaf first, root frame dropped, times from timeDeltas', () => {
  const frame = (functionName: string, line: number) => ({ functionName, scriptId: '1', url: 'file:///a.js', lineNumber: line, columnNumber: 0 });
  const cpu: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', -1), children: [2] },
      { id: 2, callFrame: frame('main', 9), children: [3] },
      { id: 3, callFrame: frame('work', 19) },
    ],
    startTime: 0,
    endTime: 3000,
    samples: [3, 3, 2],
    timeDeltas: [0, 1000, 1000],
  };
  const p = decode(cpuProfileToPprof(cpu, 1000, Date.UTC(2026, 0, 1)));
  const name = (locId: number) => p.stringTable[p.function.find((f) => f.id === p.location.find((l) => l.id === locId)!.line[0]!.functionId)!.name];
  const stacks = p.sample.map((sm) => `${sm.locationId.map(name).join('<')}:${sm.value.join(',')}`).sort();
  assert.deepEqual(stacks, ['main:1,1000000', 'work<main:2,2000000']);
  assert.equal(p.durationNanos, 3_000_000);
  assert.equal(p.location.find((l) => name(l.id) === 'work')!.line[0]!.line, 20);
});

test('/debug/pprof/block: what waited (work queues, the event loop) with --contention-profiling; empty without', async () => {
  const profile = new ContentionProfile();
  const queue = newRateLimitingQueue<string>({ name: 'contention-test' });
  try {
    queue.add('a');
    await new Promise((r) => setTimeout(r, 30));
    const item = await queue.get();
    queue.done(item!);
    // the event loop's delay is sampled by a timer of its own: wait for its first sample
    for (let i = 0; i < 500 && !profile.waits().some((w) => w.what === 'event loop'); i++) await new Promise((r) => setTimeout(r, 10));
    const p = decode(gunzipSync(profile.pprof()));
    const s = (i: number) => p.stringTable[i];
    assert.deepEqual(p.sampleType.map((t) => `${s(t.type)}/${s(t.unit)}`), ['contentions/count', 'delay/nanoseconds']);
    const byName = new Map(p.sample.map((sm) => [s(p.function.find((f) => f.id === p.location.find((l) => l.id === sm.locationId[0])!.line[0]!.functionId)!.name), sm.value]));
    const waited = byName.get('workqueue contention-test')!;
    assert.equal(waited[0], 1);
    assert.ok(waited[1]! >= 25e6, `waited ${waited[1]} ns`);
    assert.ok((byName.get('event loop')?.[0] ?? 0) >= 1, 'the event loop was sampled while the item waited');
  } finally {
    profile.stop();
    queue.shutDown();
  }
  await withServer(true, async (url) => {
    const r = await fetch(`${url}/debug/pprof/block`);
    assert.equal(r.status, 200);
    assert.equal(decode(gunzipSync(Buffer.from(await r.arrayBuffer()))).sample.length, 0);
  });
});
