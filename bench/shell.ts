// `npm run bench -- shell`: the built-in shell of simulated containers, in process (no API
// server, no streams over the network): what one exec costs before the kubelet API and the API
// server's proxy add theirs — a command's latency, a script's loop, tar both ways and cat
// throughput (what `kubectl cp` moves), and building a container's filesystem.
import { PassThrough, Readable, Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { Pod } from '../src/api/types.js';
import { containerFilesystem, runCommand, Vfs } from '../src/nodes/shell/index.js';
import type { BenchReport } from './report.js';

/** A sink that counts bytes and takes them as fast as they come. */
class Counter extends Writable {
  bytes = 0;
  chunks: Buffer[] | undefined;
  constructor(keep = false) {
    super();
    if (keep) this.chunks = [];
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.bytes += chunk.length;
    this.chunks?.push(chunk);
    cb();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function exec(fs: Vfs, argv: string[], stdout: Writable = new Counter(), stdin?: Readable): Promise<number> {
  return runCommand(argv, { stdin, stdout, stderr: new PassThrough().resume(), tty: false }, { fs, env: { PATH: '/bin', HOME: '/root' }, hostname: 'bench', signal: new AbortController().signal });
}

const POD: Pod = {
  metadata: { name: 'web-0', namespace: 'default', uid: 'u' },
  spec: {
    serviceAccountName: 'default',
    containers: [{ name: 'app', volumeMounts: [{ name: 'cfg', mountPath: '/etc/app' }, { name: 'kube-api-access-x', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }] }],
    volumes: [
      { name: 'cfg', configMap: { name: 'app' } },
      {
        name: 'kube-api-access-x',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ],
  },
  status: { podIP: '10.64.0.2' },
};

export async function run(args: string[]): Promise<BenchReport> {
  const execs = Number(args[0] ?? 2000);
  const mib = Number(args[1] ?? 32);
  const sources = {
    configMap: async () => ({ data: { 'app.conf': 'x=1\n', 'ca.crt': 'CERT\n' } }),
    secret: async () => undefined,
    serviceAccountToken: async () => 'token',
  };
  const fs = await containerFilesystem(POD, 'app', sources, { budgetBytes: 4 * mib * 2 ** 20 });

  // One command's latency (warm).
  for (let i = 0; i < 200; i++) await exec(fs, ['echo', 'hi']);
  const lat: number[] = [];
  for (let i = 0; i < execs; i++) {
    const t = performance.now();
    await exec(fs, ['echo', 'hi']);
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  const shLat: number[] = [];
  for (let i = 0; i < execs / 4; i++) {
    const t = performance.now();
    await exec(fs, ['sh', '-c', 'cat /etc/hostname | grep web && test -f /var/run/secrets/kubernetes.io/serviceaccount/token']);
    shLat.push(performance.now() - t);
  }
  shLat.sort((a, b) => a - b);

  let t = performance.now();
  await exec(fs, ['sh', '-c', 'i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done']);
  const loopMs = performance.now() - t;

  // kubectl cp's data path: a tree of mib MiB in 1 MiB files.
  await exec(fs, ['mkdir', '-p', '/data']);
  const block = Buffer.alloc(2 ** 20, 7);
  for (let i = 0; i < mib; i++) fs.writeFile(`/data/f${i}`, block);
  const archive = new Counter(true);
  t = performance.now();
  await exec(fs, ['tar', 'cf', '-', '/data'], archive);
  const tarOutMs = performance.now() - t;
  const tarBytes = Buffer.concat(archive.chunks!);
  fs.mkdir('/copy');
  t = performance.now();
  const slices: Buffer[] = [];
  for (let off = 0; off < tarBytes.length; off += 64 * 1024) slices.push(tarBytes.subarray(off, off + 64 * 1024));
  await exec(fs, ['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/copy'], new Counter(), Readable.from(slices));
  const tarInMs = performance.now() - t;
  t = performance.now();
  await exec(fs, ['cat', '/data/f0', '/data/f1', '/data/f2', '/data/f3']);
  const catMs = performance.now() - t;

  const builds: number[] = [];
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    await containerFilesystem(POD, 'app', sources);
    builds.push(performance.now() - s);
  }
  builds.sort((a, b) => a - b);

  const mbps = (bytes: number, ms: number): number => bytes / 2 ** 20 / (ms / 1000);
  return {
    name: `shell (in process, ${execs} execs, ${mib} MiB copied)`,
    columns: ['value'],
    rows: [
      { metric: 'exec echo, p50', values: { value: percentile(lat, 50) * 1000 }, unit: 'µs', target: 'part of exec ≤ 50 ms p50', met: percentile(lat, 50) < 50 },
      { metric: 'exec echo, p99', values: { value: percentile(lat, 99) * 1000 }, unit: 'µs' },
      { metric: 'sh -c "cat | grep && test", p50', values: { value: percentile(shLat, 50) * 1000 }, unit: 'µs' },
      { metric: 'while loop, 10,000 turns', values: { value: loopMs }, unit: 'ms' },
      { metric: `tar cf - (${mib} MiB)`, values: { value: mbps(tarBytes.length, tarOutMs) }, unit: 'MiB/s' },
      { metric: `tar -xmf - (${mib} MiB)`, values: { value: mbps(tarBytes.length, tarInMs) }, unit: 'MiB/s' },
      { metric: 'cat 4 MiB', values: { value: mbps(4 * 2 ** 20, catMs) }, unit: 'MiB/s' },
      { metric: 'container filesystem build (SA token + ConfigMap), p50', values: { value: percentile(builds, 50) * 1000 }, unit: 'µs' },
    ],
    notes: [`node ${process.version}; one process; stdout a counting sink`],
  };
}
