// `npm run bench -- controllers-nodes [failing] [healthy] [rate]`: the node lifecycle controller's
// eviction pace. A fresh `kubelite apiserver --storage memory` and `kubelite controller-manager`
// (--node-eviction-rate=<rate>, default 2 so that 100 nodes take ~50 s rather than the 1,000 s
// of Kubernetes' 0.1; the pace is what is measured) see `healthy` + `failing` Nodes (200 + 100) in
// one zone, whose Leases this bench renews; at once the `failing` ones report Ready=False. The
// bench watches the Nodes and timestamps each NoExecute taint as it arrives: with the zone Normal
// (a third of it failing) the taints must come one per 1/rate seconds. Printed: the first and last
// taint, the intervals' median and extremes against 1/rate, and the controller manager's CPU and RSS.
import type { KubeObject } from '../src/client/types.js';
import { cpuSeconds, peakRssMiB, startCluster } from './controllers.js';
import { quantile, type BenchReport } from './report.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const LEASE_NS = 'kube-node-lease';

const microTime = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');
const seconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function node(name: string, ready: 'True' | 'False', now: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'topology.kubernetes.io/zone': 'bench', 'kubernetes.io/hostname': name } },
    status: { conditions: [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'KubeletReady' : 'KubeletNotReady', message: '', lastHeartbeatTime: seconds(now), lastTransitionTime: seconds(now) }] },
  };
}

export async function run(args: string[]): Promise<BenchReport> {
  const failing = Number(args[0] ?? 100);
  const healthy = Number(args[1] ?? 200);
  const rate = Number(args[2] ?? 2);
  const c = await startCluster(1000, 2000, [`--node-eviction-rate=${rate}`, '--node-monitor-period=1s', '--node-monitor-grace-period=20s']);
  try {
    const nodes = c.cs.resource(NODES);
    const leases = c.cs.resource(LEASES);
    const names = Array.from({ length: failing + healthy }, (_, i) => `bench-node-${i}`);
    const failingNames = new Set(names.slice(0, failing));
    await c.cs.resource({ group: '', version: 'v1', resource: 'namespaces' }).create('', { metadata: { name: LEASE_NS } }).catch(() => undefined);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(
        names.slice(i, i + 50).map(async (name) => {
          const created = await nodes.create('', node(name, 'True', Date.now()));
          await nodes.update('', { ...created, status: node(name, 'True', Date.now()).status }, { subresource: 'status' });
          await leases.create(LEASE_NS, { metadata: { name }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(Date.now()) } });
        }),
      );
    }
    // the healthy nodes keep renewing (every 2 s, within the 20 s grace)
    let renewing = true;
    const renew = (async () => {
      while (renewing) {
        await Promise.all(names.filter((n) => !failingNames.has(n)).map((name) => leases.patch(LEASE_NS, name, 'merge', { spec: { renewTime: microTime(Date.now()) } }).catch(() => undefined)));
        await new Promise((r) => setTimeout(r, 2000));
      }
    })();
    // settle: the controller has seen every node Ready (the API server's not-ready taints gone)
    const settleDeadline = Date.now() + 60_000;
    for (;;) {
      const list = await nodes.list('');
      if (list.items.every((n) => ((n.spec as { taints?: unknown[] } | undefined)?.taints ?? []).length === 0)) break;
      if (Date.now() > settleDeadline) throw new Error('nodes still tainted after 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const tainted = new Map<string, number>();
    const list = await nodes.list('');
    const watch = await nodes.watch('', { resourceVersion: list.metadata.resourceVersion, allowWatchBookmarks: true });
    const watching = (async () => {
      for await (const ev of watch) {
        const n = ev.object;
        const name = String((n.metadata as { name?: string }).name);
        const taints = ((n.spec as { taints?: { effect?: string }[] } | undefined)?.taints ?? []);
        if (!tainted.has(name) && taints.some((t) => t.effect === 'NoExecute')) tainted.set(name, Date.now());
      }
    })();
    const cpu0 = cpuSeconds(c.cm.pid!);
    const start = Date.now();
    await Promise.all([...failingNames].map((name) => nodes.patch('', name, 'merge', { status: node(name, 'False', Date.now()).status }, { subresource: 'status' })));
    const deadline = start + ((failing - 1) / rate) * 1000 + 60_000;
    while (tainted.size < failing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const cpu = cpuSeconds(c.cm.pid!) - cpu0;
    watch.close();
    await watching.catch(() => undefined);
    renewing = false;
    await renew;
    const times = [...tainted.entries()].filter(([n]) => failingNames.has(n)).map(([, t]) => t).sort((a, b) => a - b);
    const intervals = times.slice(1).map((t, i) => (t - times[i]!) / 1000);
    const expected = 1 / rate;
    const col = `rate ${rate}/s (interval ${expected.toFixed(2)} s)`;
    const v = (x: number) => ({ [col]: Number(x.toFixed(3)) });
    return {
      name: `controllers-nodes (${failing} of ${failing + healthy} nodes NotReady at once, one zone)`,
      columns: [col],
      rows: [
        { metric: 'nodes tainted NoExecute', values: v(times.length), unit: 'nodes' },
        { metric: 'first taint after the failure', values: v(((times[0] ?? NaN) - start) / 1000), unit: 's' },
        { metric: 'last taint after the failure', values: v(((times[times.length - 1] ?? NaN) - start) / 1000), unit: 's', target: `≈ ${((failing - 1) * expected).toFixed(1)} s` },
        { metric: 'interval between taints, median', values: v(quantile(intervals, 0.5)), unit: 's', target: `${expected.toFixed(2)} s` },
        { metric: 'interval between taints, min / max', values: { [col]: `${Math.min(...intervals).toFixed(2)} / ${Math.max(...intervals).toFixed(2)}` }, unit: 's' },
        { metric: 'controller-manager CPU over the evictions', values: v(cpu), unit: 'cpu-s' },
        { metric: 'controller-manager peak RSS (VmHWM)', values: v(peakRssMiB(c.cm.pid!)), unit: 'MiB' },
      ],
      notes: [
        'A fresh `kubelite apiserver --storage memory` and `kubelite controller-manager --leader-elect=false --node-monitor-period=1s --node-monitor-grace-period=20s`; the Nodes are objects this bench writes (no simulated nodes), their Leases renewed by it every 2 s.',
        'Times are when this bench\'s watch saw each NoExecute taint; the controller drains each zone\'s queue every 100 ms through a token bucket of burst 1, so taints land on the first pass after each token.',
      ],
    };
  } finally {
    await c.stop();
  }
}
