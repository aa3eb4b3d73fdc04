// Persistent volumes on `kubelite up`, through kubectl: a claim without a class gets the default
// StorageClass `standard` and a volume its hostPath provisioner makes; a claim with a selector binds
// the smallest matching static volume; a deleted claim's provisioned volume is deleted (Delete) and a
// static one is Released (Retain); a claim of a class nobody provisions waits with the event saying so.
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
    cluster = await startCluster({ nodes: 1 });
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
});
