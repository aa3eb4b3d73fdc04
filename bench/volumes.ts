// `npm run bench -- volumes [replicas]`: what volumes cost on `kubelite up --nodes 3` (the real
// CLI). A StatefulSet of R replicas (100, podManagementPolicy Parallel) is created three times,
// each on a fresh cluster, until all R replicas are Ready: without volumes (the reference, same
// machine, same run), with a volumeClaimTemplate of the default class `standard` (hostPath
// provisioner, Immediate), and of a `csi.kubelite.dev` class with WaitForFirstConsumer — claims
// waiting for the scheduler's node, provisioned by the nodes' CSI driver, attached by the
// attach/detach controller before each pod starts. Printed: the time, its multiple of the
// reference, and the CPU of each component over the scenario.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../src/client/types.js';
import { client, clusterProcesses, cpuOf, startUp } from './cluster.js';
import type { BenchReport, BenchRow } from './report.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const STATEFULSETS = { group: 'apps', version: 'v1', resource: 'statefulsets' };
const CLASSES = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };
const ATTACHMENTS = { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments' };
const NS = 'bench';
const TIMEOUT_MS = 300_000;

interface Variant {
  col: string;
  storageClass?: string;
}

const VARIANTS: Variant[] = [
  { col: 'no volumes (reference)' },
  { col: 'hostPath, Immediate', storageClass: 'standard' },
  { col: 'CSI, WaitForFirstConsumer, attached', storageClass: 'kubelite-csi' },
];

function statefulSet(replicas: number, storageClass: string | undefined): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: NS },
    spec: {
      replicas,
      serviceName: 'db',
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres', ...(storageClass ? { volumeMounts: [{ name: 'data', mountPath: '/data' }] } : {}) }] } },
      ...(storageClass ? { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { storageClassName: storageClass, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } : {}),
    },
  };
}

async function scenario(v: Variant, replicas: number): Promise<{ seconds: number; cpu: Map<string, number>; attachments: number }> {
  const up = await startUp(['--nodes', '3']);
  try {
    const cs = client(up.kubeconfig);
    await cs.resource(NAMESPACES).create('', { metadata: { name: NS } });
    if (v.storageClass === 'kubelite-csi') {
      await cs.resource(CLASSES).create('', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'kubelite-csi' }, provisioner: 'csi.kubelite.dev', volumeBindingMode: 'WaitForFirstConsumer' } as KubeObject);
    }
    const procs = clusterProcesses(up.child.pid!);
    const before = cpuOf(procs);
    const t0 = performance.now();
    await cs.resource(STATEFULSETS).create(NS, statefulSet(replicas, v.storageClass));
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const sts = await cs.resource(STATEFULSETS).get(NS, 'db');
      if ((sts.status as { readyReplicas?: number } | undefined)?.readyReplicas === replicas) break;
      if (Date.now() > deadline) throw new Error(`${v.col}: ${replicas} replicas not Ready after ${TIMEOUT_MS} ms`);
      await sleep(50);
    }
    const seconds = (performance.now() - t0) / 1000;
    const after = cpuOf(procs);
    const cpu = new Map([...after].map(([name, s]) => [name, s - (before.get(name) ?? 0)]));
    const attachments = (await cs.resource(ATTACHMENTS).list('')).items.length;
    return { seconds, cpu, attachments };
  } finally {
    await up.stop();
  }
}

export async function run(args: string[]): Promise<BenchReport> {
  const replicas = Number(args[0] ?? 100);
  const results = new Map<string, Awaited<ReturnType<typeof scenario>>>();
  for (const v of VARIANTS) {
    const r = await scenario(v, replicas);
    results.set(v.col, r);
    process.stderr.write(`${v.col}: ${JSON.stringify({ seconds: r.seconds, attachments: r.attachments, cpu: Object.fromEntries(r.cpu) })}\n`);
  }
  const columns = VARIANTS.map((v) => v.col);
  const reference = results.get(columns[0]!)!.seconds;
  const per = (f: (r: Awaited<ReturnType<typeof scenario>>) => number) => Object.fromEntries(columns.map((c) => [c, f(results.get(c)!)]));
  const components = [...new Set([...results.values()].flatMap((r) => [...r.cpu.keys()]))];
  const rows: BenchRow[] = [
    { metric: `StatefulSet of ${replicas} (Parallel): all Ready`, values: per((r) => r.seconds), unit: 's' },
    { metric: 'the same, as a multiple of the run without volumes', values: per((r) => r.seconds / reference), unit: '×' },
    { metric: 'VolumeAttachments at the end', values: per((r) => r.attachments), unit: 'objects' },
    ...components.map((name) => ({ metric: `CPU of ${name} over the scenario`, values: per((r) => r.cpu.get(name) ?? 0), unit: 'cpu-s' })),
  ];
  return {
    name: `volumes (StatefulSet of ${replicas}, kubelite up --nodes 3)`,
    columns,
    rows,
    notes: ['Each column on a fresh `kubelite up --nodes 3` (lmdb, temporary data dir); times from the StatefulSet create to status.readyReplicas = R, polled every 50 ms. CPU: utime+stime of each process of the cluster over the scenario.'],
  };
}
