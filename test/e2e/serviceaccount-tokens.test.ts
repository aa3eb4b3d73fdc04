// Service account tokens and the ServiceAccount admission plugin end to end: `kubelite apiserver`
// (its own signing key in <data-dir>/pki/sa.key, a static admin token, RBAC) with `kubelite
// controller-manager` (default service accounts, legacy token Secrets, kube-root-ca.crt, each
// controller with its own service account token) and real kubectl (1.27 and 1.33) as the test admin
// (client certificate) or with a token kubeconfig.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseSigningKey, readSigningKey } from '../../src/machinery/jwt/keys.js';
import { boundClaims, signToken } from '../../src/machinery/jwt/tokens.js';
import { startControllerManager, type RunningControllerManager } from '../support/controller-manager.js';
import { Client } from '../support/http.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, writeKubeconfig, type RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBdGVzdC1jYQ==\n-----END CERTIFICATE-----\n';
const VERSIONS = ['1.27', '1.33'];

let api: RunningApiserver;
/** The test admin (client certificate, system:masters). */
let client: Client;
/** Without a client certificate: anonymous, or whoever the bearer token says. */
let certless: Client;
/** kubectl as the test admin. */
let admin: string;
let manager: RunningControllerManager | undefined;
const logs = () => manager?.logs() ?? '';

function bearer(token: string) {
  return { headers: { authorization: `Bearer ${token}` } };
}


function payloadOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, any>;
}

async function review(token: string, audiences?: string[]): Promise<Record<string, any>> {
  const r = await client.post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, audiences } });
  assert.equal(r.status, 201, r.text);
  return r.json.status as Record<string, any>;
}

/** The answer to listing pods in `app` with `token`: 401 unauthenticated, 403 naming the user, or 200. */
async function listPods(token: string): Promise<{ status: number; message: string }> {
  const r = await certless.get('/api/v1/namespaces/app/pods', bearer(token));
  return { status: r.status, message: r.status === 200 ? '' : (r.json.message as string) };
}

describe('service account tokens', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory', '--enable-admission-plugins=ServiceAccount']);
    admin = api.kubeconfig;
    client = new Client(api.url);
    certless = new Client(api.url, { certless: true });
    const key = join(api.dir, 'data', 'pki', 'sa.key');
    assert.ok(existsSync(key), 'the API server created its signing key');
    const caFile = join(api.dir, 'ca.crt');
    writeFileSync(caFile, CA);
    await kubectlOk(admin, ['create', 'namespace', 'app']);
    manager = await startControllerManager(admin, [
      '--controllers=serviceaccount,serviceaccount-token,root-ca-cert-publisher,clusterrole-aggregation', '--service-account-private-key-file', key, '--root-ca-file', caFile,
      // The controllers talk to the API server with bound tokens of their own service accounts.
      '--use-service-account-credentials',
    ]);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/serviceaccounts/default')).status === 200, `default service account (${logs()})`);
  });
  after(async () => {
    await manager?.stop();
    await api?.stop();
  });

  it('--use-service-account-credentials: controllers work with tokens of their kube-system service accounts', async () => {
    for (const name of ['service-account-controller', 'root-ca-cert-publisher', 'clusterrole-aggregation-controller']) {
      assert.equal((await client.get(`/api/v1/namespaces/kube-system/serviceaccounts/${name}`)).status, 200, name);
    }
    await kubectlOk(admin, ['create', 'namespace', 'fresh']);
    await waitFor(async () => (await client.get('/api/v1/namespaces/fresh/serviceaccounts/default')).status === 200, `default service account in fresh (${logs()})`);
    await waitFor(async () => (await client.get('/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt')).status === 200, `kube-root-ca.crt in fresh (${logs()})`);
    assert.doesNotMatch(logs(), /Unauthorized|forbidden/);
  });

  for (const version of VERSIONS) {
    it(`kubectl ${version} create token: claims, audience, duration, bound to a pod`, async () => {
      const sa = `bot-${version.replace('.', '-')}`;
      await kubectlOk(admin, ['-n', 'app', 'create', 'serviceaccount', sa], { version });
      const saUid = (await client.get(`/api/v1/namespaces/app/serviceaccounts/${sa}`)).json.metadata.uid as string;
      const plain = (await kubectlOk(admin, ['-n', 'app', 'create', 'token', sa], { version })).trim();
      const claims = payloadOf(plain);
      assert.deepEqual(claims.aud, [ISSUER]);
      assert.equal(claims.iss, ISSUER);
      assert.equal(claims.sub, `system:serviceaccount:app:${sa}`);
      assert.equal(claims.exp - claims.iat, 3600);
      assert.equal(claims.nbf, claims.iat);
      assert.match(claims.jti, /^[0-9a-f-]{36}$/);
      assert.deepEqual(claims['kubernetes.io'], { namespace: 'app', serviceaccount: { name: sa, uid: saUid } });

      await kubectlOk(admin, ['-n', 'app', 'run', `p-${sa}`, '--image', 'nginx', `--overrides={"spec":{"serviceAccountName":"${sa}"}}`], { version });
      const bound = (await kubectlOk(admin, ['-n', 'app', 'create', 'token', sa, '--audience', 'x', '--duration', '10m', '--bound-object-kind', 'Pod', '--bound-object-name', `p-${sa}`], { version })).trim();
      const b = payloadOf(bound);
      assert.deepEqual(b.aud, ['x']);
      assert.equal(b.exp - b.iat, 600);
      const podUid = (await client.get(`/api/v1/namespaces/app/pods/p-${sa}`)).json.metadata.uid as string;
      assert.deepEqual(b['kubernetes.io'].pod, { name: `p-${sa}`, uid: podUid });

      const short = await kubectl(admin, ['-n', 'app', 'create', 'token', sa, '--duration', '5m'], { version });
      assert.notEqual(short.code, 0);
      assert.match(short.stderr, /TokenRequest.authentication.k8s.io "bot-[\d-]+" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes/);
      const other = await kubectl(admin, ['-n', 'app', 'create', 'token', sa, '--bound-object-kind', 'Pod', '--bound-object-name', 'nope'], { version });
      assert.match(other.stderr, /pods "nope" not found/);
    });
  }

  it("a pod's token is a client credential: it authenticates as the service account (kubectl and HTTP)", async () => {
    await kubectlOk(admin, ['-n', 'app', 'create', 'serviceaccount', 'worker']);
    await kubectlOk(admin, ['-n', 'app', 'run', 'worker-pod', '--image', 'nginx', '--overrides={"spec":{"serviceAccountName":"worker"}}']);
    // What the kubelet would mount: a token for the API server bound to the pod.
    const tr = await client.post('/api/v1/namespaces/app/serviceaccounts/worker/token', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker-pod' } },
    });
    assert.equal(tr.status, 201, tr.text);
    const token = tr.json.status.token as string;
    const claims = payloadOf(token);
    // The projected volume's expiry is extended to a year and warned about after 3607 s.
    assert.equal(claims.exp - claims.iat, 365 * 24 * 3600);
    assert.equal(claims['kubernetes.io'].warnafter - claims.iat, 3607);
    assert.equal(Date.parse(tr.json.status.expirationTimestamp) / 1000 - claims.iat, 3607);

    // Authenticated as the service account, which RBAC does not let list pods yet.
    assert.deepEqual(await listPods(token), { status: 403, message: 'pods is forbidden: User "system:serviceaccount:app:worker" cannot list resource "pods" in API group "" in the namespace "app"' });
    const kubeconfig = join(api.dir, 'worker.kubeconfig');
    writeKubeconfig(kubeconfig, api.url, { token });
    for (const version of VERSIONS) {
      const denied = await kubectl(kubeconfig, ['-n', 'app', 'get', 'pods'], { version });
      assert.match(denied.stderr, /User "system:serviceaccount:app:worker" cannot list resource "pods"/);
    }
    await kubectlOk(admin, ['-n', 'app', 'create', 'rolebinding', 'worker-view', '--clusterrole=view', '--serviceaccount=app:worker']);
    await waitFor(async () => (await listPods(token)).status === 200, 'the service account may list pods once bound to view');
    for (const version of VERSIONS) {
      assert.match(await kubectlOk(kubeconfig, ['-n', 'app', 'get', 'pods', '-o', 'name'], { version }), /pod\/worker-pod/);
      assert.equal((await kubectlOk(kubeconfig, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], { version })).trim(), 'system:serviceaccount:app:worker');
    }
    const status = await review(token);
    assert.equal(status.authenticated, true);
    assert.equal(status.user.username, 'system:serviceaccount:app:worker');
    assert.deepEqual(status.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:app', 'system:authenticated']);
    assert.deepEqual(status.user.extra['authentication.kubernetes.io/pod-name'], ['worker-pod']);
    assert.deepEqual(status.audiences, [ISSUER]);

    // The pod goes: its token stops working.
    await kubectlOk(admin, ['-n', 'app', 'delete', 'pod', 'worker-pod', '--grace-period=0', '--force']);
    await waitFor(async () => (await listPods(token)).status === 401, 'token of a deleted pod refused');
    for (const version of VERSIONS) {
      const gone = await kubectl(kubeconfig, ['-n', 'app', 'get', 'pods'], { version });
      assert.match(gone.stderr, /Unauthorized|must be logged in/);
    }
    assert.equal((await review(token)).error, '[invalid bearer token, service account token has been invalidated]');
  });

  it('expired tokens, tokens for another audience, other keys, deleted service accounts and garbage are 401', async () => {
    await kubectlOk(admin, ['-n', 'app', 'create', 'serviceaccount', 'temp']);
    const sa = (await client.get('/api/v1/namespaces/app/serviceaccounts/temp')).json;
    const key = readSigningKey(join(api.dir, 'data', 'pki', 'sa.key'));
    const now = Math.floor(Date.now() / 1000);
    const claims = (over: { now?: number } = {}) => boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'app', name: 'temp', uid: sa.metadata.uid }, audiences: [ISSUER], expirationSeconds: 600, now, ...over });
    const expired = await signToken(claims({ now: now - 7200 }), key);
    const r = await certless.get('/api/v1/namespaces/app/pods', bearer(expired));
    assert.equal(r.status, 401);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.equal((await review(expired)).error, '[invalid bearer token, service account token has expired]');
    const stranger = parseSigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const otherKey = await signToken(claims(), stranger);
    assert.equal((await listPods(otherKey)).status, 401);
    assert.equal((await review(otherKey)).error, '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]');

    const otherAudience = (await kubectlOk(admin, ['-n', 'app', 'create', 'token', 'temp', '--audience', 'vault'])).trim();
    assert.equal((await listPods(otherAudience)).status, 401);
    const forVault = await review(otherAudience, ['vault']);
    assert.equal(forVault.authenticated, true);
    assert.deepEqual(forVault.audiences, ['vault']);
    assert.match((await review(otherAudience)).error, /token audiences \["vault"\] is invalid for the target audiences \["https:\/\/kubernetes.default.svc.cluster.local"\]/);

    for (const garbage of ['x', 'a.b.c', `${otherAudience.split('.')[0]}.e30.`, otherAudience.slice(0, -4), `${'A'.repeat(8000)}.${'B'.repeat(8000)}.C`]) {
      assert.equal((await listPods(garbage)).status, 401, garbage.slice(0, 40));
    }
    const valid = (await kubectlOk(admin, ['-n', 'app', 'create', 'token', 'temp'])).trim();
    assert.equal((await listPods(valid)).status, 403, 'authenticated, not authorized');
    await kubectlOk(admin, ['-n', 'app', 'delete', 'serviceaccount', 'temp']);
    await waitFor(async () => (await listPods(valid)).status === 401, 'token of a deleted service account refused');
    // Without a token the request is anonymous, which RBAC refuses.
    const anonymous = await certless.get('/api/v1/namespaces/app/pods');
    assert.equal(anonymous.status, 403);
    assert.match(anonymous.json.message, /User "system:anonymous" cannot list resource "pods"/);
    const empty = await client.post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
    assert.equal(empty.status, 400);
    assert.equal(empty.json.message, 'token is required for TokenReview in authentication');
  });

  it('legacy token Secrets are filled by the controller, authenticate, and go with their service account', async () => {
    await kubectlOk(admin, ['-n', 'app', 'create', 'serviceaccount', 'legacy']);
    await kubectlOk(admin, ['-n', 'app', 'apply', '-f', '-'], {
      input: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: legacy-token\n  annotations:\n    kubernetes.io/service-account.name: legacy\ntype: kubernetes.io/service-account-token\n',
    });
    const secret = await waitFor(async () => {
      const s = (await client.get('/api/v1/namespaces/app/secrets/legacy-token')).json;
      return s.data?.token ? s : undefined;
    }, `token filled (${logs()})`);
    assert.equal(Buffer.from(secret.data['ca.crt'], 'base64').toString(), CA);
    assert.equal(Buffer.from(secret.data.namespace, 'base64').toString(), 'app');
    const token = Buffer.from(secret.data.token, 'base64').toString();
    assert.equal(payloadOf(token).iss, 'kubernetes/serviceaccount');
    assert.match((await listPods(token)).message, /User "system:serviceaccount:app:legacy" cannot list resource "pods"/);
    assert.equal((await review(token)).user.username, 'system:serviceaccount:app:legacy');
    // Legacy token tracking: the Secret records the day it was last used.
    const today = new Date().toISOString().slice(0, 10);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/secrets/legacy-token')).json.metadata.labels?.['kubernetes.io/legacy-token-last-used'] === today, 'last-used label');
    await kubectlOk(admin, ['-n', 'app', 'delete', 'serviceaccount', 'legacy']);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/secrets/legacy-token')).status === 404, 'the token Secret goes with its service account');
    assert.equal((await listPods(token)).status, 401);
  });

  it('a pod without serviceAccountName gets the default one and the projected volume; a missing one is 403', async () => {
    await kubectlOk(admin, ['-n', 'app', 'run', 'plain', '--image', 'nginx']);
    const pod = JSON.parse(await kubectlOk(admin, ['-n', 'app', 'get', 'pod', 'plain', '-o', 'json']));
    assert.equal(pod.spec.serviceAccountName, 'default');
    assert.equal(pod.spec.serviceAccount, 'default');
    const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.deepEqual(volume.projected.sources[0], { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } });
    assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    const yaml = await kubectlOk(admin, ['-n', 'app', 'get', 'pod', 'plain', '-o', 'yaml']);
    assert.match(yaml, /mountPath: \/var\/run\/secrets\/kubernetes.io\/serviceaccount/);
    // The ConfigMap the volume refers to is published in every namespace.
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/configmaps/kube-root-ca.crt')).json.data?.['ca.crt'] === CA, 'kube-root-ca.crt');

    for (const version of VERSIONS) {
      const name = `ghost-${version.replace('.', '-')}`;
      const r = await kubectl(admin, ['-n', 'app', 'run', name, '--image', 'nginx', '--overrides={"spec":{"serviceAccountName":"ghost"}}'], { version });
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr.trim(), `Error from server (Forbidden): pods "${name}" is forbidden: error looking up service account app/ghost: serviceaccount "ghost" not found`);
    }
    // Server-side apply goes through admission too; what admission adds belongs to no manager
    // (as in kube-apiserver: the field manager runs before mutating admission).
    await kubectlOk(admin, ['-n', 'app', 'apply', '--server-side', '-f', '-'], { input: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: applied\nspec:\n  containers:\n  - name: c\n    image: nginx\n' });
    const applied = (await client.get('/api/v1/namespaces/app/pods/applied')).json;
    assert.equal(applied.spec.serviceAccountName, 'default');
    assert.ok(applied.spec.volumes.some((v: { name: string }) => v.name.startsWith('kube-api-access-')));
    const owned = JSON.stringify(applied.metadata.managedFields);
    assert.doesNotMatch(owned, /f:volumes|f:volumeMounts|f:serviceAccountName/);
    const optOut = await client.post('/api/v1/namespaces/app/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'quiet' }, spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(optOut.status, 201, optOut.text);
    assert.equal(optOut.json.spec.volumes, undefined);
  });
});
