// The API server remembers accepted service account tokens (kube-apiserver's 10 s token cache),
// yet a token stops working once what it was validated against goes: its ServiceAccount, or the
// pod or Secret it is bound to. `kubelite apiserver` with real kubectl (`create token`, `delete`)
// and a client without a certificate sending the token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '../support/http.js';
import { kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

let api: RunningApiserver;
let certless: Client;

/** The status of a request any authenticated user may make (discovery), sent with `token`. */
async function statusWith(token: string): Promise<number> {
  return (await certless.get('/apis', { headers: { authorization: `Bearer ${token}` } })).status;
}

/** Accepted several times over (the later ones answered from the cache). */
async function acceptedRepeatedly(token: string): Promise<void> {
  for (let i = 0; i < 5; i++) assert.equal(await statusWith(token), 200);
}

describe('service account token cache', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory', '--authorization-mode', 'RBAC']);
    certless = new Client(api.url, { certless: true });
    await kubectlOk(api.kubeconfig, ['create', 'namespace', 'cache']);
  });
  after(async () => {
    await api?.stop();
  });

  it('a deleted ServiceAccount’s token is refused (401)', async () => {
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'serviceaccount', 'gone']);
    const token = (await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'token', 'gone'])).trim();
    await acceptedRepeatedly(token);
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'delete', 'serviceaccount', 'gone']);
    await waitFor(async () => (await statusWith(token)) === 401, 'the token of the deleted service account refused');
  });

  it('a token bound to a deleted pod or Secret is refused while the ServiceAccount stays', async () => {
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'serviceaccount', 'bot']);
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'nginx' }] } }),
    });
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'secret', 'generic', 's', '--from-literal=k=v']);
    const podToken = (await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'token', 'bot', '--bound-object-kind', 'Pod', '--bound-object-name', 'p'])).trim();
    const secretToken = (await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'token', 'bot', '--bound-object-kind', 'Secret', '--bound-object-name', 's'])).trim();
    const plainToken = (await kubectlOk(api.kubeconfig, ['-n', 'cache', 'create', 'token', 'bot'])).trim();
    for (const t of [podToken, secretToken, plainToken]) await acceptedRepeatedly(t);
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'delete', 'pod', 'p', '--grace-period=0', '--force']);
    await waitFor(async () => (await statusWith(podToken)) === 401, 'the token of the deleted pod refused');
    await kubectlOk(api.kubeconfig, ['-n', 'cache', 'delete', 'secret', 's']);
    await waitFor(async () => (await statusWith(secretToken)) === 401, 'the token of the deleted secret refused');
    assert.equal(await statusWith(plainToken), 200, 'the service account’s other token still works');
  });
});
