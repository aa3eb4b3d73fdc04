// `npm run bench -- snapshot [objects]`: cluster reset between tests on `kubelite up --nodes 1`
// (startCluster): a cluster holding `objects` (1,000) ConfigMaps besides its own, a snapshot; then
// (a) what a test typically leaves — 100 created, 100 changed, 100 deleted — restored, and (b) the
// worst case, every one of the objects deleted, restored (1,000 created again). Each restore timed
// from the call to its answer (all writes committed), median of 5; the writes a restore makes go
// through the API server's storage as ordinary writes, so the same run's create rate is beside it.
import { startCluster } from '../src/up/cluster.js';
import { client } from './cluster.js';
import { parallel } from './parallel.js';
import { quantile, type BenchReport } from './report.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

export async function run(args: string[]): Promise<BenchReport> {
  const objects = Number(args[0] ?? 1000);
  const cluster = await startCluster({ nodes: 1 });
  try {
    const cs = client(cluster.kubeconfig);
    const cms = cs.resource(CONFIGMAPS);
    const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { bench: 'snapshot' } }, data: { v } });
    const t0 = performance.now();
    await parallel(range(objects), 16, (i) => cms.create('default', cm(`cm-${i}`, 'original')));
    const createRate = objects / ((performance.now() - t0) / 1000);
    const handle = await cluster.snapshot();
    const typical: number[] = [];
    const worst: number[] = [];
    for (let round = 0; round < 5; round++) {
      await parallel(range(100), 16, (i) => cms.create('default', cm(`extra-${i}`, 'new')));
      await parallel(range(100), 16, (i) => cms.update('default', cm(`cm-${i}`, `changed-${round}`)));
      await parallel(range(100), 16, (i) => cms.delete('default', `cm-${objects - 1 - i}`));
      let t = performance.now();
      await cluster.restore(handle);
      typical.push(performance.now() - t);
      const all = (await cms.list('default')).items.filter((o) => (o.metadata as { labels?: Record<string, string> }).labels?.bench === 'snapshot');
      await parallel(all, 16, (o) => cms.delete('default', (o.metadata as { name: string }).name));
      t = performance.now();
      await cluster.restore(handle);
      worst.push(performance.now() - t);
    }
    return {
      name: 'snapshot',
      columns: ['value'],
      rows: [
        { metric: `objects in the cluster (${objects} ConfigMaps and the cluster's own)`, values: { value: handle.keys }, unit: 'keys' },
        { metric: 'restore after 100 created, 100 changed, 100 deleted, p50', values: { value: quantile(typical, 0.5) }, unit: 'ms', target: '≤ 100 ms', met: quantile(typical, 0.5) <= 100 },
        { metric: `restore after all ${objects} deleted (${objects} created again), p50`, values: { value: quantile(worst, 0.5) }, unit: 'ms' },
        { metric: `the same ${objects} ConfigMaps created through the API, 16 clients`, values: { value: createRate }, unit: 'creates/s' },
      ],
      notes: ['A restore is a diff of ordinary storage writes (new resourceVersions, watch events), taken inside the API server: no admission or validation, which the snapshot\'s objects passed when they were written.'],
    };
  } finally {
    await cluster.stop();
  }
}
