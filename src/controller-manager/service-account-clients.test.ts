import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestConfig } from '../client/kubeconfig.js';
import type { Clientset, KubeObject, ResourceClient } from '../client/types.js';
import { ServiceAccountClients } from './service-account-clients.js';

/** A root clientset that knows service accounts and answers TokenRequests with numbered tokens. */
function fakeRoot(existing: string[]) {
  const accounts = new Set(existing);
  const calls: string[] = [];
  let issued = 0;
  const notFound = () => Object.assign(new Error('not found'), { code: 404 });
  const client = {
    ref: { group: '', version: 'v1', resource: 'serviceaccounts' },
    async get(ns: string, name: string) {
      calls.push(`get ${ns}/${name}`);
      if (!accounts.has(name)) throw notFound();
      return { metadata: { name, namespace: ns } };
    },
    async create(ns: string, obj: KubeObject) {
      const name = (obj.metadata as { name: string }).name;
      calls.push(`create ${ns}/${name}`);
      if (accounts.has(name)) throw Object.assign(new Error('already exists'), { code: 409 });
      accounts.add(name);
      return obj;
    },
    async createSubresource(ns: string, name: string, sub: string, body: KubeObject) {
      calls.push(`${sub} ${ns}/${name} ${JSON.stringify(body.spec)}`);
      if (!accounts.has(name)) throw notFound();
      return { status: { token: `token-${name}-${++issued}`, expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() } };
    },
  } as unknown as ResourceClient;
  const root: Clientset = { resource: () => client };
  return { root, calls };
}

describe('--use-service-account-credentials clients', () => {
  it('creates the service account in kube-system (one that exists is kept) and authenticates with its bound token only', async () => {
    const { root, calls } = fakeRoot(['deployment-controller']);
    const made: Array<{ config: RestConfig; name: string }> = [];
    const clients = new ServiceAccountClients({
      root,
      config: { server: 'https://127.0.0.1:6443', ca: Buffer.from('ca'), clientCert: Buffer.from('cert'), clientKey: Buffer.from('key'), token: 'root-token' },
      newClientset: (config, name) => {
        made.push({ config, name });
        return root;
      },
      log: () => {},
    });
    await clients.clientsetFor('job');
    await clients.clientsetFor('deployment');
    clients.close();
    assert.deepEqual(calls, [
      'create kube-system/job-controller',
      'token kube-system/job-controller {"audiences":[],"expirationSeconds":3600}',
      'create kube-system/deployment-controller',
      'token kube-system/deployment-controller {"audiences":[],"expirationSeconds":3600}',
    ]);
    assert.deepEqual(made.map((m) => m.name), ['job-controller', 'deployment-controller']);
    const { config } = made[0]!;
    assert.equal(config.server, 'https://127.0.0.1:6443');
    assert.deepEqual(config.ca, Buffer.from('ca'));
    // The daemon's own credentials must not travel with the controller's requests.
    assert.equal(config.clientCert, undefined);
    assert.equal(config.token, undefined);
    assert.equal(config.tokenSource?.(), 'token-job-controller-1');
  });

  it('has no clientset of its own for a controller without a service account', async () => {
    const { root, calls } = fakeRoot([]);
    const clients = new ServiceAccountClients({ root, config: { server: 'https://x' }, newClientset: () => root, log: () => {} });
    assert.equal(await clients.clientsetFor('serviceaccount-token'), undefined);
    assert.deepEqual(calls, []);
  });
});
