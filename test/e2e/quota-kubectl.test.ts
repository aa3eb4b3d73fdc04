// End-to-end with real kubectl against `kubelite apiserver` and `kubelite controller-manager`
// (its resourcequota controller): `kubectl create quota`, `get quota` and `describe quota` showing
// used/hard as the controller and quota admission keep them, LimitRanges through `get limits`,
// and `kubectl explain`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startControllerManager, type RunningControllerManager } from '../support/controller-manager.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

const POD = (name: string, cpu: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: q}
spec:
  containers: [{name: c, image: busybox, resources: {requests: {cpu: ${cpu}}, limits: {cpu: ${cpu}}}}]
`;

describe('quotas and limit ranges through kubectl', () => {
  let api: RunningApiserver;
  let manager: RunningControllerManager;
  const k = (args: string[], input?: string) => kubectlOk(api.kubeconfig, args, { input });
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    manager = await startControllerManager(api.kubeconfig, ['--controllers=resourcequota', '--resource-quota-sync-period=2s', '--concurrent-resource-quota-syncs=2']);
    await k(['create', 'namespace', 'q']);
  });
  after(async () => {
    await manager?.stop();
    await api?.stop();
  });

  it('kubectl create quota; the controller fills status; admission charges and refuses; get and describe show used/hard', async () => {
    assert.match(await k(['create', 'quota', 'compute', '--hard=pods=2,requests.cpu=1,limits.cpu=2', '-n', 'q']), /resourcequota\/compute created/);
    const used = async () => (await k(['get', 'quota', 'compute', '-n', 'q', '-o', 'jsonpath={.status.used}'])).trim();
    await waitFor(async () => (await used()) !== '', `quota status (${manager.logs()})`);
    assert.deepEqual(JSON.parse(await used()), { 'limits.cpu': '0', pods: '0', 'requests.cpu': '0' });

    await k(['apply', '-f', '-'], POD('a', '600m'));
    const refused = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: POD('b', '600m') });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1/);

    const table = await k(['get', 'quota', '-n', 'q']);
    assert.match(table, /^NAME\s+AGE\s+REQUEST\s+LIMIT\n/);
    assert.match(table, /compute\s+\S+\s+pods: 1\/2, requests.cpu: 600m\/1\s+limits.cpu: 600m\/2\n/);
    const described = await k(['describe', 'quota', 'compute', '-n', 'q']);
    assert.match(described, /Resource\s+Used\s+Hard\n\s*--------\s+----\s+----\n/);
    assert.match(described, /limits.cpu\s+600m\s+2\n/);
    assert.match(described, /pods\s+1\s+2\n/);
    assert.match(described, /requests.cpu\s+600m\s+1\n/);

    // Deleting the pod gives the quota back (the controller replenishes on deletes).
    await k(['delete', 'pod', 'a', '-n', 'q', '--grace-period=0', '--force']);
    await waitFor(async () => JSON.parse(await used()).pods === '0', 'replenished quota');
    await k(['apply', '-f', '-'], POD('b', '600m'));
  });

  it('kubectl get limits, explain, and the short names', async () => {
    await k(['apply', '-f', '-'], `
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: q}
spec:
  limits: [{type: Container, default: {memory: 64Mi}}]
`);
    const table = await k(['get', 'limits', '-n', 'q']);
    assert.match(table, /^NAME\s+CREATED AT\ndefaults\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    const lr = JSON.parse(await k(['get', 'limitrange', 'defaults', '-n', 'q', '-o', 'json']));
    assert.deepEqual(lr.spec.limits[0].defaultRequest, { memory: '64Mi' });
    assert.match(await k(['explain', 'resourcequota.spec']), /FIELDS:[\s\S]*hard\s+<map\[string\]Quantity>[\s\S]*scopeSelector\s+<ScopeSelector>/);
    assert.match(await k(['explain', 'limitrange.spec']), /limits\s+<\[\]LimitRangeItem> -required-/);
    assert.match(await k(['get', 'quota,limits', '-n', 'q', '-o', 'name']), /resourcequota\/compute\nlimitrange\/defaults\n/);
    await k(['delete', 'limits', 'defaults', '-n', 'q']);
    await k(['delete', 'quota', 'compute', '-n', 'q']);
    assert.equal((await k(['get', 'quota,limits', '-n', 'q', '-o', 'name'])).trim(), '');
  });
});
