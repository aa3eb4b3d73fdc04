// Persistent volumes on `kubelite up`, through kubectl: a claim without a class gets the default
// StorageClass `standard` and a volume its hostPath provisioner makes; a claim with a selector binds
// the smallest matching static volume; a deleted claim's provisioned volume is deleted (Delete) and a
// static one is Released (Retain); a claim of a class nobody provisions waits with the event saying so;
// WaitForFirstConsumer claims wait for their pod and are bound or provisioned on the node the
// scheduler picks (which must suit a static volume's node affinity); a pod whose claim is missing or
// unbound in Immediate mode stays Pending with the scheduler's reason.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const NS = 'volumes';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const claim = (name: string, o: { size?: string; cls?: string; selector?: Record<string, string> } = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: o.size ?? '1Gi' } }, ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.selector ? { selector: { matchLabels: o.selector } } : {}) } });
const volume = (name: string, size: string, labels: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, labels }, spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: '', hostPath: { path: `/data/${name}` } } });
const phase = async (kind: string, name: string, ns = true) => (await k([...(ns ? ['-n', NS] : []), 'get', kind, name, '-o', 'jsonpath={.status.phase}'])).trim();

describe('kubelite up: persistent volumes', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a claim of the default class is provisioned and bound; its volume goes with it', async () => {
    assert.match(await k(['get', 'storageclass']), /standard \(default\)\s+kubernetes\.io\/host-path\s+Delete\s+Immediate/);
    await k(['apply', '-f', '-'], claim('data'));
    await waitFor(async () => (await phase('pvc', 'data')) === 'Bound', 'the claim bound', 30_000);
    const pv = (await k(['-n', NS, 'get', 'pvc', 'data', '-o', 'jsonpath={.spec.volumeName}'])).trim();
    assert.match(pv, /^pvc-[0-9a-f-]{36}$/);
    assert.match(await k(['get', 'pv', pv]), new RegExp(`${pv}\\s+1Gi\\s+RWO\\s+Delete\\s+Bound\\s+${NS}/data\\s+standard`));
    assert.match(await k(['-n', NS, 'get', 'events', '--field-selector', 'reason=ProvisioningSucceeded', '-o', 'jsonpath={.items[*].message}']), new RegExp(`Successfully provisioned volume ${pv} using kubernetes.io/host-path`));
    await k(['-n', NS, 'delete', 'pvc', 'data']);
    await waitFor(async () => (await kubectl(cluster.kubeconfig, ['get', 'pv', pv])).code !== 0, 'the provisioned volume deleted', 30_000);
  });

  it('a claim with a selector binds the smallest matching static volume, which is Released after it', async () => {
    await k(['apply', '-f', '-'], volume('small', '1Gi', { tier: 'fast' }));
    await k(['apply', '-f', '-'], volume('big', '5Gi', { tier: 'fast' }));
    await k(['apply', '-f', '-'], volume('other', '1Gi', { tier: 'slow' }));
    await k(['apply', '-f', '-'], claim('static', { cls: '', selector: { tier: 'fast' }, size: '500Mi' }));
    await waitFor(async () => (await phase('pvc', 'static')) === 'Bound', 'bound', 30_000);
    assert.equal((await k(['-n', NS, 'get', 'pvc', 'static', '-o', 'jsonpath={.spec.volumeName}'])).trim(), 'small');
    assert.equal(await phase('pv', 'big', false), 'Available');
    await k(['-n', NS, 'delete', 'pvc', 'static']);
    await waitFor(async () => (await phase('pv', 'small', false)) === 'Released', 'Released', 30_000);
  });

  it('a claim of a class with an external provisioner waits and says so', async () => {
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'csi' }, provisioner: 'example.com/csi' }));
    await k(['apply', '-f', '-'], claim('external', { cls: 'csi' }));
    await waitFor(async () => /ExternalProvisioning/.test(await k(['-n', NS, 'get', 'events', '--field-selector', 'involvedObject.name=external'])), 'the event', 30_000);
    assert.equal(await phase('pvc', 'external'), 'Pending');
  });

  const pod = (name: string, claimName: string) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] } });
  const field = async (kind: string, name: string, path: string, ns = true) => (await k([...(ns ? ['-n', NS] : []), 'get', kind, name, '-o', `jsonpath=${path}`])).trim();

  it('WaitForFirstConsumer: the claim waits for its pod, then is provisioned on the node the scheduler chose', async () => {
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local' }, provisioner: 'kubernetes.io/host-path', volumeBindingMode: 'WaitForFirstConsumer' }));
    await k(['apply', '-f', '-'], claim('late', { cls: 'local' }));
    await waitFor(async () => /WaitForFirstConsumer\s+.*waiting for first consumer to be created before binding/.test(await k(['-n', NS, 'get', 'events', '--field-selector', 'involvedObject.name=late'])), 'the WaitForFirstConsumer event', 30_000);
    assert.equal(await phase('pvc', 'late'), 'Pending');
    await k(['apply', '-f', '-'], pod('consumer', 'late'));
    await waitFor(async () => (await phase('pvc', 'late')) === 'Bound' && (await field('pod', 'consumer', '{.spec.nodeName}')) !== '', 'claim bound and pod scheduled', 30_000);
    const node = await field('pod', 'consumer', '{.spec.nodeName}');
    assert.equal(await field('pvc', 'late', "{.metadata.annotations['volume\\.kubernetes\\.io/selected-node']}"), node);
    const pv = await field('pvc', 'late', '{.spec.volumeName}');
    assert.equal(await field('pv', pv, '{.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]}', false), node);
  });

  it("WaitForFirstConsumer with static volumes: the pod goes where the only fitting volume's node affinity allows", async () => {
    const nodes = (await k(['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(/\s+/);
    assert.equal(nodes.length, 2);
    const target = nodes[1]!;
    await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'manual-local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' }));
    const local = (name: string, size: string, onNode: string) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], storageClassName: 'manual-local', local: { path: `/mnt/${name}` }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [onNode] }] }] } } } });
    await k(['apply', '-f', '-'], local('local-small', '100Mi', nodes[0]!));
    await k(['apply', '-f', '-'], local('local-big', '2Gi', target));
    await k(['apply', '-f', '-'], claim('pinned', { cls: 'manual-local', size: '1Gi' }));
    await k(['apply', '-f', '-'], pod('pinned-user', 'pinned'));
    await waitFor(async () => (await phase('pvc', 'pinned')) === 'Bound' && (await field('pod', 'pinned-user', '{.spec.nodeName}')) !== '', 'bound and scheduled', 30_000);
    assert.equal(await field('pod', 'pinned-user', '{.spec.nodeName}'), target);
    assert.equal(await field('pvc', 'pinned', '{.spec.volumeName}'), 'local-big');
    // No volume left for a second claim, and nothing provisions this class.
    await k(['apply', '-f', '-'], claim('pinned2', { cls: 'manual-local', size: '1Gi' }));
    await k(['apply', '-f', '-'], pod('pinned-user2', 'pinned2'));
    await waitFor(async () => /didn't find available persistent volumes to bind/.test(await field('pod', 'pinned-user2', '{.status.conditions[?(@.type=="PodScheduled")].message}')), 'unschedulable', 30_000);
  });

  it("a pod whose claim is missing, or unbound in Immediate mode, stays Pending with the scheduler's reason", async () => {
    await k(['apply', '-f', '-'], pod('orphan', 'nope'));
    await waitFor(async () => (await field('pod', 'orphan', '{.status.conditions[?(@.type=="PodScheduled")].reason}')) === 'Unschedulable', 'unschedulable', 30_000);
    assert.equal(
      await field('pod', 'orphan', '{.status.conditions[?(@.type=="PodScheduled")].message}'),
      '0/2 nodes are available: persistentvolumeclaim "nope" not found. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    await k(['apply', '-f', '-'], pod('waiting', 'external'));
    await waitFor(async () => /pod has unbound immediate PersistentVolumeClaims/.test(await field('pod', 'waiting', '{.status.conditions[?(@.type=="PodScheduled")].message}')), 'unschedulable', 30_000);
    // Once the claim exists and binds, the pod is scheduled.
    await k(['apply', '-f', '-'], claim('nope'));
    await waitFor(async () => (await field('pod', 'orphan', '{.spec.nodeName}')) !== '', 'scheduled after the claim bound', 30_000);
  });

  it('Recycle (deprecated, warned): a recycler pod scrubs the released volume, which is Available again', async () => {
    const pv = JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'reused', labels: { tier: 'recycled' } }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Recycle', storageClassName: '', hostPath: { path: '/tmp/reused' } } });
    const created = await kubectl(cluster.kubeconfig, ['apply', '-f', '-'], { input: pv });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /Warning: spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning./);
    await k(['apply', '-f', '-'], claim('once', { cls: '', selector: { tier: 'recycled' } }));
    await waitFor(async () => (await phase('pvc', 'once')) === 'Bound', 'bound', 30_000);
    await k(['-n', NS, 'delete', 'pvc', 'once']);
    await waitFor(async () => (await phase('pv', 'reused', false)) === 'Available', 'recycled and Available', 60_000);
    assert.equal((await k(['get', 'pv', 'reused', '-o', 'jsonpath={.spec.claimRef}'])).trim(), '');
    assert.match(await k(['get', 'events', '-A', '--field-selector', 'involvedObject.name=reused']), /VolumeRecycled\s+persistentvolume\/reused\s+Volume recycled/);
    assert.equal((await kubectl(cluster.kubeconfig, ['-n', 'default', 'get', 'pod', 'recycler-for-reused'])).code, 1, 'the recycler pod is gone');
  });
});
