// The cloud controllers on `kubelite up --cloud-provider=kubelite` (the simulated cloud), through
// kubectl: a LoadBalancer Service gets an address (EXTERNAL-IP) and the cleanup finalizer, and loses
// both when it stops being one; nodes get their routes (NetworkUnavailable=False, RouteCreated); a
// NotReady Node whose instance is terminated is deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });

describe('kubelite up --cloud-provider=kubelite', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2, args: { controllerManager: ['--cloud-provider=kubelite', '--route-reconciliation-period=1s', '--node-monitor-period=1s'] } });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a LoadBalancer Service gets an ingress address and gives it back', async () => {
    await k(['create', 'service', 'loadbalancer', 'web', '--tcp=80:8080']);
    await waitFor(async () => /^web\s+LoadBalancer\s+\S+\s+172\.18\.255\.\d+\s+80:\d+\/TCP/m.test(await k(['get', 'svc', 'web'])), 'EXTERNAL-IP', 30_000);
    assert.match(await k(['get', 'svc', 'web', '-o', 'jsonpath={.metadata.finalizers}']), /service\.kubernetes\.io\/load-balancer-cleanup/);
    assert.match(await k(['get', 'events', '--field-selector', 'involvedObject.name=web', '-o', 'jsonpath={.items[*].reason}']), /EnsuringLoadBalancer.*EnsuredLoadBalancer/);
    await k(['patch', 'svc', 'web', '--type=merge', '-p', '{"spec":{"type":"ClusterIP","externalTrafficPolicy":null}}']);
    await waitFor(async () => (await k(['get', 'svc', 'web', '-o', 'jsonpath={.status.loadBalancer.ingress}{.metadata.finalizers}'])).trim() === '', 'address and finalizer gone', 30_000);
  });

  it('nodes get routes; a NotReady node whose instance is terminated is deleted', async () => {
    await waitFor(async () => {
      const out = await k(['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="NetworkUnavailable")].reason}{"\\n"}{end}']);
      return out.trim().split('\n').every((r) => r === 'RouteCreated') && out.trim() !== '';
    }, 'RouteCreated on every node', 30_000);
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'gone-instance', annotations: { 'kubelite.dev/cloud-instance': 'terminated' } } }));
    await waitFor(async () => !/gone-instance/.test(await k(['get', 'nodes'])), 'the node deleted', 30_000);
  });
});
