// The start-time ensurers run again on the same storage, as at a restart: deleted mandatory and
// suggested APF objects come back, an edited suggested one is left as the admin made it; local
// APIServices get their spec back and those registered for group versions no longer served go.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../api/schema/kind.js';
import { StatusError } from '../machinery/status.js';
import { bootstrapLocalAPIServices } from './bootstrap-apiservices.js';
import { bootstrapFlowControl } from './bootstrap-apf.js';
import { startApiServer, type ApiServer } from './server.js';

let server: ApiServer;
before(async () => {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
});
after(async () => {
  await server?.close();
});

const store = (group: string, resource: string) => server.registry.store(group, resource)!;
const exists = async (group: string, resource: string, name: string): Promise<boolean> => {
  try {
    await store(group, resource).get('', name);
    return true;
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return false;
    throw err;
  }
};

test('APF: deleted objects are created again; a suggested object an admin edited keeps the edit', async () => {
  const F = 'flowcontrol.apiserver.k8s.io';
  await store(F, 'flowschemas').delete('', 'exempt');
  await store(F, 'prioritylevelconfigurations').delete('', 'catch-all');
  await store(F, 'flowschemas').delete('', 'probes');
  await store(F, 'flowschemas').guaranteedUpdate('', 'global-default', (cur) => ({ ...cur, spec: { ...(cur.spec as KubeObject), matchingPrecedence: 9800 } }));
  assert.equal(await exists(F, 'flowschemas', 'exempt'), false);
  await bootstrapFlowControl(server.registry);
  for (const [resource, name] of [['flowschemas', 'exempt'], ['prioritylevelconfigurations', 'catch-all'], ['flowschemas', 'probes']] as const) assert.equal(await exists(F, resource, name), true, name);
  const edited = (await store(F, 'flowschemas').get('', 'global-default')) as { spec: KubeObject };
  assert.equal(edited.spec.matchingPrecedence, 9800);
});

test('APIServices: a changed local one gets its spec back, stale registered ones go, a user one stays', async () => {
  const A = 'apiregistration.k8s.io';
  const apiservices = store(A, 'apiservices');
  await apiservices.guaranteedUpdate('', 'v1.apps', (cur) => ({ ...cur, spec: { ...(cur.spec as KubeObject), versionPriority: 3 } }));
  const spec = { service: null, version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15 };
  await apiservices.create('', { apiVersion: `${A}/v1`, kind: 'APIService', metadata: { name: 'v1.gone.example.com', labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } }, spec: { ...spec, group: 'gone.example.com' } });
  await apiservices.create('', { apiVersion: `${A}/v1`, kind: 'APIService', metadata: { name: 'v1.mine.example.com' }, spec: { ...spec, group: 'mine.example.com' } });
  await bootstrapLocalAPIServices(server.registry);
  assert.equal(((await apiservices.get('', 'v1.apps')) as { spec: KubeObject }).spec.versionPriority, 15);
  assert.equal(await exists(A, 'apiservices', 'v1.gone.example.com'), false);
  assert.equal(await exists(A, 'apiservices', 'v1.mine.example.com'), true);
});
