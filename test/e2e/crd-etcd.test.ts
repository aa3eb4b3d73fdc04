// Two `kubelite apiserver` processes on one etcd: a CRD created through one is served by both
// within a second, custom resources written through either are read through the other, and
// deleting the CRD stops both serving it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { etcdSkipReason, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { Client } from '../support/http.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

const skip = etcdSkipReason();

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.shared.example.com}
spec:
  group: shared.example.com
  scope: Cluster
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;

describe('custom resources on two API servers sharing etcd', { skip }, () => {
  let etcd: EtcdServer;
  let a: RunningApiserver;
  let b: RunningApiserver;
  before(async () => {
    etcd = await startEtcd({ fsync: false });
    const args = ['--storage', 'etcd', '--etcd-servers', etcd.endpoints.join(',')];
    a = await startApiserver(args);
    b = await startApiserver(args);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await etcd?.stop();
  });

  it('a CRD created on one server is served by the other within a second', async () => {
    await kubectlOk(a.kubeconfig, ['apply', '-f', '-'], { input: CRD });
    const started = Date.now();
    const onB = new Client(b.url);
    await waitFor(async () => (await onB.get('/apis/shared.example.com/v1/widgets')).status === 200, 'server B to serve widgets', 5000, 10);
    assert.ok(Date.now() - started < 1000, `served by B after ${Date.now() - started} ms`);
    await onB.create('/apis/shared.example.com/v1/widgets', { apiVersion: 'shared.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, size: 3 });
    const got = await new Client(a.url).get('/apis/shared.example.com/v1/widgets/w1');
    assert.equal(got.json.size, 3);
  });

  it('deleting the CRD on one server stops both serving it', async () => {
    await kubectlOk(b.kubeconfig, ['delete', 'crd', 'widgets.shared.example.com', '--timeout=20s']);
    for (const s of [a, b]) await waitFor(async () => (await new Client(s.url).get('/apis/shared.example.com/v1/widgets')).status === 404, 'widgets to be gone');
  });
});
