// The kinds' own warnings (Kubernetes' WarningsOnCreate / WarningsOnUpdate) reach the client in
// `Warning` headers on create, update, patch and server-side apply: deprecated node labels in a
// pod, the deprecated ingress class annotation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';

const NS = 'warnings';
const ARCH_WARNING = 'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use \\"kubernetes.io/arch\\" instead';
const TEMPLATE_ARCH_WARNING = 'spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use \\"kubernetes.io/arch\\" instead';

describe('strategy warnings in Warning headers', () => {
  let server: ApiServer;
  const call = async (method: string, path: string, body: unknown, contentType = 'application/json') => {
    const res = await fetch(server.url + path, { method, headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, warning: res.headers.get('warning') ?? '', body: text };
  };
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
    assert.equal((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    // No controller manager here: the ServiceAccount admission wants the namespace's default account.
    assert.equal((await call('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })).status, 201);
  });
  after(async () => {
    await server?.close();
  });

  it('a pod create warns of its deprecated node label; a pod without one gets no Warning', async () => {
    const pod = (name: string, nodeSelector: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeSelector, containers: [{ name: 'c', image: 'busybox' }] } });
    const warned = await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('old-label', { 'beta.kubernetes.io/arch': 'amd64' }));
    assert.equal(warned.status, 201, warned.body);
    assert.equal(warned.warning, `299 - "${ARCH_WARNING}"`);
    const plain = await call('POST', `/api/v1/namespaces/${NS}/pods`, pod('new-label', { 'kubernetes.io/arch': 'amd64' }));
    assert.equal(plain.status, 201, plain.body);
    assert.equal(plain.warning, '');
  });

  it('updates, merge patches and server-side apply of a Deployment warn of its template', async () => {
    const path = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const deployment = (nodeSelector: Record<string, string>) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { nodeSelector, containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const created = await call('POST', path, deployment({}));
    assert.equal(created.status, 201, created.body);
    assert.equal(created.warning, '');
    const put = await call('PUT', `${path}/web`, deployment({ 'beta.kubernetes.io/arch': 'amd64' }));
    assert.equal(put.status, 200, put.body);
    assert.equal(put.warning, `299 - "${TEMPLATE_ARCH_WARNING}"`);
    const patched = await call('PATCH', `${path}/web`, { spec: { replicas: 2 } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, patched.body);
    assert.equal(patched.warning, `299 - "${TEMPLATE_ARCH_WARNING}"`);
    const applied = await call('PATCH', `${path}/web?fieldManager=e2e&force=true`, deployment({ 'beta.kubernetes.io/os': 'linux' }), 'application/apply-patch+yaml');
    assert.equal(applied.status, 200, applied.body);
    assert.match(applied.warning, /spec\.template\.spec\.nodeSelector\[beta\.kubernetes\.io\/os\]: deprecated since v1\.14/);
  });

  it('an Ingress naming its class by the deprecated annotation is warned', async () => {
    const res = await call('POST', `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'old-class', annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
      spec: { defaultBackend: { service: { name: 'svc', port: { number: 80 } } } },
    });
    assert.equal(res.status, 201, res.body);
    assert.equal(res.warning, `299 - "annotation \\"kubernetes.io/ingress.class\\" is deprecated, please use 'spec.ingressClassName' instead"`);
  });
});
