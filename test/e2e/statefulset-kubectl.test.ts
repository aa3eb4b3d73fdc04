// StatefulSets on `kubelite up`, through real kubectl: ordered start (each pod created after its
// predecessor is Ready), stable names and claims from volumeClaimTemplates, `kubectl rollout status`,
// a partitioned update, `kubectl rollout history` and `undo` over ControllerRevisions, and scale
// down from the highest ordinal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Pod {
  metadata: { name: string; creationTimestamp: string; labels: Record<string, string>; deletionTimestamp?: string };
  spec: { hostname?: string; subdomain?: string; containers: { image: string }[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] };
  status: { conditions?: { type: string; status: string; lastTransitionTime: string }[] };
}
interface StatefulSet {
  status: { replicas: number; readyReplicas?: number; updatedReplicas?: number; currentReplicas?: number; currentRevision: string; updateRevision: string };
}

const NS = 'sts';
const MANIFEST = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  clusterIP: None
  selector:
    app: web
  ports:
  - port: 80
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: c
        image: nginx:1
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1Gi
`;

let cluster: Cluster;
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, ['-n', NS, ...args], { input });
const pods = async (): Promise<Pod[]> => ((JSON.parse(await k(['get', 'pods', '-l', 'app=web', '-o', 'json'])) as { items: Pod[] }).items).filter((p) => !p.metadata.deletionTimestamp);
const set = async (): Promise<StatefulSet> => JSON.parse(await k(['get', 'statefulset', 'web', '-o', 'json'])) as StatefulSet;
const imagesOf = async () => Object.fromEntries((await pods()).map((p) => [p.metadata.name, p.spec.containers[0]!.image]));
const readySince = (p: Pod): string => p.status.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime ?? '';

describe('kubelite up: StatefulSets through kubectl', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
    await kubectlOk(cluster.kubeconfig, ['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('starts in order with stable identities and claims, updates by partition, rolls back and scales down from the top', async () => {
    await k(['apply', '-f', '-'], MANIFEST);
    await k(['rollout', 'status', 'statefulset/web', '--timeout=90s']);
    const started = (await pods()).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    assert.deepEqual(started.map((p) => p.metadata.name), ['web-0', 'web-1', 'web-2']);
    for (let i = 1; i < started.length; i++) {
      // OrderedReady: created no earlier than its predecessor became Ready
      assert.ok(started[i]!.metadata.creationTimestamp >= readySince(started[i - 1]!), `${started[i]!.metadata.name} created before ${started[i - 1]!.metadata.name} was Ready`);
    }
    for (const [i, p] of started.entries()) {
      assert.equal(p.spec.hostname, `web-${i}`);
      assert.equal(p.spec.subdomain, 'web');
      assert.equal(p.metadata.labels['statefulset.kubernetes.io/pod-name'], `web-${i}`);
      assert.deepEqual(p.spec.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim, { claimName: `data-web-${i}` });
    }
    // bound to volumes the default StorageClass's provisioner made
    await waitFor(async () => /data-web-0\s+Bound\s+pvc-[\s\S]*data-web-1\s+Bound\s+pvc-[\s\S]*data-web-2\s+Bound\s+pvc-/.test(await k(['get', 'pvc'])), 'claims bound', 30_000);

    // a partitioned update: only ordinals >= 2 move to the new template
    await k(['patch', 'statefulset', 'web', '--type=merge', '-p', '{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}}}}']);
    await k(['set', 'image', 'statefulset/web', 'c=nginx:2']);
    assert.match(await k(['rollout', 'status', 'statefulset/web', '--timeout=90s']), /partitioned roll out complete: 1 new pods have been updated/);
    assert.deepEqual(await imagesOf(), { 'web-0': 'nginx:1', 'web-1': 'nginx:1', 'web-2': 'nginx:2' });
    const partial = await set();
    assert.notEqual(partial.status.currentRevision, partial.status.updateRevision);
    assert.equal(partial.status.updatedReplicas, 1);

    const history = await k(['rollout', 'history', 'statefulset/web']);
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    assert.match(await k(['rollout', 'history', 'statefulset/web', '--revision=2']), /Image:\s+nginx:2/);

    // undo: back to revision 1's template, which keeps its revision object with the next number
    await k(['rollout', 'undo', 'statefulset/web']);
    await waitFor(async () => JSON.stringify(await imagesOf()) === JSON.stringify({ 'web-0': 'nginx:1', 'web-1': 'nginx:1', 'web-2': 'nginx:1' }), 'web-2 rolled back', 60_000);
    assert.match(await k(['rollout', 'history', 'statefulset/web']), /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);

    // scale down: the highest ordinal goes first; the claims stay (Retain)
    await k(['scale', 'statefulset/web', '--replicas=1']);
    await waitFor(async () => (await pods()).map((p) => p.metadata.name).join() === 'web-0', 'scaled to web-0', 60_000);
    const events = await k(['get', 'events', '--field-selector', 'involvedObject.kind=StatefulSet,reason=SuccessfulDelete', '--sort-by=.metadata.creationTimestamp', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}']);
    const deletes = events.split('\n').filter((l) => /delete Pod web-[12] in StatefulSet web successful/.test(l));
    assert.deepEqual(deletes.slice(-2), ['delete Pod web-2 in StatefulSet web successful', 'delete Pod web-1 in StatefulSet web successful']);
    assert.match(await k(['get', 'pvc', 'data-web-2']), /data-web-2/);
    await waitFor(async () => (await set()).status.replicas === 1, 'status.replicas 1', 30_000);
  });
});
