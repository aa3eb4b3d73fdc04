// Admission runs on scale and rollback writes, with the operation Kubernetes gives them: scaling
// is an UPDATE (allowed in a namespace being terminated), a rollback the CREATE of a
// DeploymentRollback (refused there by NamespaceLifecycle, nothing written).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findResource } from '../api/kinds.js';
import { AdmissionChain } from './admission/chain.js';
import { startApiServer, type ApiServer } from './server.js';
import { admitSubresourceWrite } from './subresource-admission.js';

describe('admission of subresource writes', () => {
  let server: ApiServer;
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
  });
  after(() => server.close());

  const call = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    fetch(`${server.url}${path}`, { method, headers: { 'content-type': contentType }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('scale (update, patch, apply) is admitted in a terminating namespace; a rollback is refused as a create there', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ending' } })).status, 201);
    const labels = { app: 'd' };
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    assert.equal((await call('POST', '/apis/apps/v1/namespaces/ending/deployments', deployment)).status, 201);
    const deleted = await call('DELETE', '/api/v1/namespaces/ending');
    assert.equal(deleted.body.status?.phase ?? deleted.body.status, 'Terminating', JSON.stringify(deleted.body));

    const scale = '/apis/apps/v1/namespaces/ending/deployments/d/scale';
    assert.equal((await call('PUT', scale, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd', namespace: 'ending' }, spec: { replicas: 2 } })).status, 200);
    assert.equal((await call('PATCH', scale, { spec: { replicas: 3 } }, 'application/merge-patch+json')).status, 200);
    const applied = await call('PATCH', `${scale}?fieldManager=t&force=true`, 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: d, namespace: ending}\nspec: {replicas: 4}\n', 'application/apply-patch+yaml');
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal(applied.body.spec.replicas, 4);

    const rollback = await call('POST', '/apis/apps/v1beta1/namespaces/ending/deployments/d/rollback', { apiVersion: 'apps/v1beta1', kind: 'DeploymentRollback', name: 'd', rollbackTo: { revision: 1 } });
    assert.equal(rollback.status, 403, JSON.stringify(rollback.body));
    assert.equal(rollback.body.message, 'deployments.apps "d" is forbidden: unable to create new content in namespace ending because it is being terminated');
    assert.equal(rollback.body.details.causes[0].reason, 'NamespaceTerminating');
    const after = await call('GET', '/apis/apps/v1/namespaces/ending/deployments/d');
    assert.equal(after.body.metadata.annotations?.['deprecated.deployment.rollback.to'], undefined, 'nothing written');
    assert.equal(after.body.spec.replicas, 4);
  });
});

describe('admitSubresourceWrite', () => {
  it('gives the plugins the request object with the subresource, mutating before the check and validating after', async () => {
    const seen: string[] = [];
    const chain = new AdmissionChain([
      {
        name: 'recorder',
        admit: (a) => {
          seen.push(`admit ${a.operation} ${a.resource}/${a.subresource} ${String(a.object?.kind)} old=${String(a.oldObject?.kind)}`);
          (a.object!.spec as { replicas: number }).replicas = 7;
        },
        validate: (a) => void seen.push(`validate ${(a.object!.spec as { replicas: number }).replicas}`),
      },
    ]);
    const kind = findResource('apps', 'v1', 'deployments')!;
    const ctx = { admission: chain, info: { subresource: 'scale', namespace: 'ns', name: 'd' }, user: { name: 'u', groups: [] } } as unknown as Parameters<typeof admitSubresourceWrite>[0];
    const store = { kind } as unknown as Parameters<typeof admitSubresourceWrite>[1];
    const scale = { kind: 'Scale', spec: { replicas: 1 } };
    await admitSubresourceWrite(ctx, store, 'UPDATE', scale, { kind: 'Scale', spec: { replicas: 0 } }, false, () => void seen.push('check'));
    assert.deepEqual(seen, ['admit UPDATE deployments/scale Scale old=Scale', 'check', 'validate 7']);
    assert.equal(scale.spec.replicas, 7);
  });
});
