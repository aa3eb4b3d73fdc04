// Service account tokens and the ServiceAccount admission plugin end to end: `kubelite apiserver`
// (its own signing key in <data-dir>/pki/sa.key) with `kubelite controller-manager` (default
// service accounts, legacy token Secrets, kube-root-ca.crt) and real kubectl (1.27 and 1.33).
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseSigningKey, readSigningKey } from '../../src/machinery/jwt/keys.js';
import { boundClaims, signToken } from '../../src/machinery/jwt/tokens.js';
import { Client } from '../support/http.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startControllerManager, type RunningControllerManager } from '../support/controller-manager.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { writeTokenKubeconfig } from '../support/token-kubeconfig.js';
import { waitFor } from '../support/wait.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBdGVzdC1jYQ==\n-----END CERTIFICATE-----\n';
const VERSIONS = ['1.27', '1.33'];

let api: RunningApiserver;
let client: Client;
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

describe('service account tokens', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory', '--enable-admission-plugins=ServiceAccount']);
    client = new Client(api.url);
    const key = join(api.dir, 'data', 'pki', 'sa.key');
    assert.ok(existsSync(key), 'the API server created its signing key');
    const caFile = join(api.dir, 'ca.crt');
    writeFileSync(caFile, CA);
    await kubectlOk(api.kubeconfig, ['create', 'namespace', 'app']);
    manager = await startControllerManager(api.kubeconfig, [
      '--controllers=serviceaccount,serviceaccount-token,root-ca-cert-publisher', '--service-account-private-key-file', key, '--root-ca-file', caFile,
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
    for (const name of ['service-account-controller', 'root-ca-cert-publisher']) {
      assert.equal((await client.get(`/api/v1/namespaces/kube-system/serviceaccounts/${name}`)).status, 200, name);
    }
    await kubectlOk(api.kubeconfig, ['create', 'namespace', 'fresh']);
    await waitFor(async () => (await client.get('/api/v1/namespaces/fresh/serviceaccounts/default')).status === 200, `default service account in fresh (${logs()})`);
    assert.doesNotMatch(logs(), /Unauthorized/);
  });

  for (const version of VERSIONS) {
    it(`kubectl ${version} create token: claims, audience, duration, bound to a pod`, async () => {
      const sa = `bot-${version.replace('.', '-')}`;
      await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'serviceaccount', sa], { version });
      const saUid = (await client.get(`/api/v1/namespaces/app/serviceaccounts/${sa}`)).json.metadata.uid as string;
      const plain = (await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'token', sa], { version })).trim();
      const claims = payloadOf(plain);
      assert.deepEqual(claims.aud, [ISSUER]);
      assert.equal(claims.iss, ISSUER);
      assert.equal(claims.sub, `system:serviceaccount:app:${sa}`);
      assert.equal(claims.exp - claims.iat, 3600);
      assert.equal(claims.nbf, claims.iat);
      assert.match(claims.jti, /^[0-9a-f-]{36}$/);
      assert.deepEqual(claims['kubernetes.io'], { namespace: 'app', serviceaccount: { name: sa, uid: saUid } });

      await kubectlOk(api.kubeconfig, ['-n', 'app', 'run', `p-${sa}`, '--image', 'nginx', `--overrides={"spec":{"serviceAccountName":"${sa}"}}`], { version });
      const bound = (await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'token', sa, '--audience', 'x', '--duration', '10m', '--bound-object-kind', 'Pod', '--bound-object-name', `p-${sa}`], { version })).trim();
      const b = payloadOf(bound);
      assert.deepEqual(b.aud, ['x']);
      assert.equal(b.exp - b.iat, 600);
      const podUid = (await client.get(`/api/v1/namespaces/app/pods/p-${sa}`)).json.metadata.uid as string;
      assert.deepEqual(b['kubernetes.io'].pod, { name: `p-${sa}`, uid: podUid });

      const short = await kubectl(api.kubeconfig, ['-n', 'app', 'create', 'token', sa, '--duration', '5m'], { version });
      assert.notEqual(short.code, 0);
      assert.match(short.stderr, /TokenRequest.authentication.k8s.io "bot-[\d-]+" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes/);
      const other = await kubectl(api.kubeconfig, ['-n', 'app', 'create', 'token', sa, '--bound-object-kind', 'Pod', '--bound-object-name', 'nope'], { version });
      assert.match(other.stderr, /pods "nope" not found/);
    });
  }

  it("a pod's token is a client credential: it authenticates as the service account (kubectl and HTTP)", async () => {
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'serviceaccount', 'worker']);
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'run', 'worker-pod', '--image', 'nginx', '--overrides={"spec":{"serviceAccountName":"worker"}}']);
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

    // kubectl sends credentials only over TLS (clientcmd drops them for http:// servers).
    const kubectlSendsTokens = api.url.startsWith('https:');
    const kubeconfig = writeTokenKubeconfig(api.kubeconfig, join(api.dir, 'worker.kubeconfig'), token);
    if (kubectlSendsTokens) {
      for (const version of VERSIONS) {
        const pods = await kubectlOk(kubeconfig, ['-n', 'app', 'get', 'pods', '-o', 'name'], { version });
        assert.match(pods, /pod\/worker-pod/);
      }
    }
    const r = await client.get('/api/v1/namespaces/app/pods/worker-pod', bearer(token));
    assert.equal(r.status, 200);
    const status = await review(token);
    assert.equal(status.authenticated, true);
    assert.equal(status.user.username, 'system:serviceaccount:app:worker');
    assert.deepEqual(status.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:app', 'system:authenticated']);
    assert.deepEqual(status.user.extra['authentication.kubernetes.io/pod-name'], ['worker-pod']);
    assert.deepEqual(status.audiences, [ISSUER]);

    // The pod goes: its token stops working.
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'delete', 'pod', 'worker-pod', '--grace-period=0', '--force']);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/pods/worker-pod', bearer(token))).status === 401, 'token of a deleted pod refused');
    if (kubectlSendsTokens) {
      for (const version of VERSIONS) {
        const gone = await kubectl(kubeconfig, ['-n', 'app', 'get', 'pods'], { version });
        assert.match(gone.stderr, /Unauthorized|must be logged in/);
      }
    }
    assert.equal((await review(token)).error, '[invalid bearer token, service account token has been invalidated]');
  });

  it('expired tokens, tokens for another audience, other keys, deleted service accounts and garbage are 401', async () => {
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'serviceaccount', 'temp']);
    const sa = (await client.get('/api/v1/namespaces/app/serviceaccounts/temp')).json;
    const key = readSigningKey(join(api.dir, 'data', 'pki', 'sa.key'));
    const now = Math.floor(Date.now() / 1000);
    const expired = await signToken(boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'app', name: 'temp', uid: sa.metadata.uid }, audiences: [ISSUER], expirationSeconds: 600, now: now - 7200 }), key);
    const r = await client.get('/api/v1/namespaces/app/pods', bearer(expired));
    assert.equal(r.status, 401);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.equal((await review(expired)).error, '[invalid bearer token, service account token has expired]');
    const stranger = parseSigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const otherKey = await signToken(boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'app', name: 'temp', uid: sa.metadata.uid }, audiences: [ISSUER], expirationSeconds: 600, now }), stranger);
    assert.equal((await client.get('/api/v1/namespaces/app/pods', bearer(otherKey))).status, 401);
    assert.equal((await review(otherKey)).error, '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]');

    const otherAudience = (await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'token', 'temp', '--audience', 'vault'])).trim();
    assert.equal((await client.get('/api/v1/namespaces/app/pods', bearer(otherAudience))).status, 401);
    const forVault = await review(otherAudience, ['vault']);
    assert.equal(forVault.authenticated, true);
    assert.deepEqual(forVault.audiences, ['vault']);
    assert.match((await review(otherAudience)).error, /token audiences \["vault"\] is invalid for the target audiences \["https:\/\/kubernetes.default.svc.cluster.local"\]/);

    for (const garbage of ['x', 'a.b.c', `${otherAudience.split('.')[0]}.e30.`, otherAudience.slice(0, -4), `${'A'.repeat(8000)}.${'B'.repeat(8000)}.C`]) {
      assert.equal((await client.get('/api/v1/namespaces/app/pods', bearer(garbage))).status, 401, garbage.slice(0, 40));
    }
    const valid = (await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'token', 'temp'])).trim();
    assert.equal((await client.get('/api/v1/namespaces/app/pods', bearer(valid))).status, 200);
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'delete', 'serviceaccount', 'temp']);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/pods', bearer(valid))).status === 401, 'token of a deleted service account refused');
    // Without a token the request is anonymous (authentication is on; AlwaysAllow authorizes it for now).
    assert.equal((await client.get('/api/v1/namespaces/app/pods')).status, 200);
    const anonymousReview = await client.post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
    assert.equal(anonymousReview.status, 400);
    assert.equal(anonymousReview.json.message, 'token is required for TokenReview in authentication');
  });

  it('legacy token Secrets are filled by the controller, authenticate, and go with their service account', async () => {
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'create', 'serviceaccount', 'legacy']);
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'apply', '-f', '-'], {
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
    assert.equal((await client.get('/api/v1/namespaces/app/secrets/legacy-token', bearer(token))).status, 200);
    assert.equal((await review(token)).user.username, 'system:serviceaccount:app:legacy');
    // Legacy token tracking: the Secret records the day it was last used.
    const today = new Date().toISOString().slice(0, 10);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/secrets/legacy-token')).json.metadata.labels?.['kubernetes.io/legacy-token-last-used'] === today, 'last-used label');
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'delete', 'serviceaccount', 'legacy']);
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/secrets/legacy-token')).status === 404, 'the token Secret goes with its service account');
    assert.equal((await client.get('/api/v1/namespaces/app/pods', bearer(token))).status, 401);
  });

  it('a pod without serviceAccountName gets the default one and the projected volume; a missing one is 403', async () => {
    await kubectlOk(api.kubeconfig, ['-n', 'app', 'run', 'plain', '--image', 'nginx']);
    const pod = JSON.parse(await kubectlOk(api.kubeconfig, ['-n', 'app', 'get', 'pod', 'plain', '-o', 'json']));
    assert.equal(pod.spec.serviceAccountName, 'default');
    assert.equal(pod.spec.serviceAccount, 'default');
    const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.deepEqual(volume.projected.sources[0], { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } });
    assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    const yaml = await kubectlOk(api.kubeconfig, ['-n', 'app', 'get', 'pod', 'plain', '-o', 'yaml']);
    assert.match(yaml, /mountPath: \/var\/run\/secrets\/kubernetes.io\/serviceaccount/);
    // The ConfigMap the volume refers to is published in every namespace.
    await waitFor(async () => (await client.get('/api/v1/namespaces/app/configmaps/kube-root-ca.crt')).json.data?.['ca.crt'] === CA, 'kube-root-ca.crt');

    for (const version of VERSIONS) {
      const r = await kubectl(api.kubeconfig, ['-n', 'app', 'run', `ghost-${version.replace('.', '-')}`, '--image', 'nginx', '--overrides={"spec":{"serviceAccountName":"ghost"}}'], { version });
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr.trim(), `Error from server (Forbidden): pods "ghost-${version.replace('.', '-')}" is forbidden: error looking up service account app/ghost: serviceaccount "ghost" not found`);
    }
    const optOut = await client.post('/api/v1/namespaces/app/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'quiet' }, spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(optOut.status, 201, optOut.text);
    assert.equal(optOut.json.spec.volumes, undefined);
  });
});
