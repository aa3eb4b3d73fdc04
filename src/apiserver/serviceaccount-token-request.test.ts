import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseSigningKey } from '../machinery/jwt/keys.js';
import { startApiServer, type ApiServer } from './server.js';
import { validateTokenRequest } from './serviceaccount-token-request.js';

const ISSUER = 'https://issuer.example';
const key = parseSigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

describe('TokenRequest (serviceaccounts/<name>/token)', () => {
  let server: ApiServer;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any>, warning: res.headers.get('warning') };
  };
  const request = (spec: Record<string, unknown>, metadata?: Record<string, unknown>) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec });
  const TOKEN = '/api/v1/namespaces/ns/serviceaccounts/bot/token';

  before(async () => {
    server = await startApiServer({
      storage: 'memory', port: 0, log: () => {},
      authentication: { authenticators: [], anonymous: true },
      serviceAccountTokens: { issuer: ISSUER, signingKey: key, apiAudiences: [ISSUER, 'api'], maxExpirationSeconds: 7200 },
    });
    assert.equal((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } })).status, 201);
    for (const name of ['default', 'bot']) {
      assert.equal((await call('POST', '/api/v1/namespaces/ns/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } })).status, 201);
    }
    const pod = await call('POST', '/api/v1/namespaces/ns/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    assert.equal(pod.status, 201, JSON.stringify(pod.body));
  });
  after(() => server.close());

  it('validates expirationSeconds as Kubernetes does', () => {
    const at = (expirationSeconds: unknown) => validateTokenRequest({ spec: { expirationSeconds } }).map((e) => `${e.field}: ${e.detail}`);
    assert.deepEqual(at(600), []);
    assert.deepEqual(at(599), ['spec.expirationSeconds: may not specify a duration less than 10 minutes']);
    assert.deepEqual(at(2 ** 32 + 1), ['spec.expirationSeconds: may not specify a duration larger than 2^32 seconds']);
  });

  it('answers 201 with the defaulted request and its token; the API audiences by default; a longer expiry is shortened with a warning', async () => {
    const r = await call('POST', TOKEN, request({}));
    assert.equal(r.status, 201);
    assert.equal(r.body.kind, 'TokenRequest');
    assert.deepEqual(r.body.metadata.name, 'bot');
    assert.deepEqual(r.body.spec, { audiences: [ISSUER, 'api'], expirationSeconds: 3600 });
    const claims = JSON.parse(Buffer.from(r.body.status.token.split('.')[1], 'base64url').toString());
    assert.equal(claims.exp - claims.iat, 3600);
    assert.equal(Date.parse(r.body.status.expirationTimestamp) / 1000, claims.exp);
    const long = await call('POST', TOKEN, request({ expirationSeconds: 86400 }));
    assert.equal(long.body.spec.expirationSeconds, 7200);
    assert.equal(long.warning, '299 - "requested expiration of 86400 seconds shortened to 7200 seconds"');
  });

  it('refuses what Kubernetes refuses, with its words', async () => {
    const short = await call('POST', TOKEN, request({ expirationSeconds: 60 }));
    assert.equal(short.status, 422);
    assert.equal(short.body.message, 'TokenRequest.authentication.k8s.io "bot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const renamed = await call('POST', TOKEN, request({}, { name: 'other' }));
    assert.equal(renamed.body.message, 'TokenRequest.authentication.k8s.io "bot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
    assert.equal((await call('POST', '/api/v1/namespaces/ns/serviceaccounts/ghost/token', request({}))).body.message, 'serviceaccounts "ghost" not found');
    const otherSa = await call('POST', TOKEN, request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } }));
    assert.equal(otherSa.status, 400);
    assert.equal(otherSa.body.message, 'cannot bind token for serviceaccount "bot" to pod running with different serviceaccount name.');
    const kind = await call('POST', TOKEN, request({ boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'd' } }));
    assert.equal(kind.body.message, 'cannot bind token to object of type apps/v1, Kind=Deployment');
    const uid = await call('POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'not-its-uid' } }));
    assert.equal(uid.status, 409);
    assert.match(uid.body.message, /the UID in the bound object reference \(not-its-uid\) does not match the UID in record/);
    assert.equal((await call('GET', TOKEN)).status, 405);
    // Admission (NamespaceLifecycle) comes first.
    assert.equal((await call('POST', '/api/v1/namespaces/gone/serviceaccounts/bot/token', request({}))).body.message, 'namespaces "gone" not found');
  });

  it('discovery lists serviceaccounts/token and the create-only tokenreviews', async () => {
    const core = await call('GET', '/api/v1');
    assert.deepEqual(core.body.resources.find((r: { name: string }) => r.name === 'serviceaccounts/token'), {
      name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'],
    });
    const authn = await call('GET', '/apis/authentication.k8s.io/v1');
    assert.deepEqual(authn.body.resources.find((r: { name: string }) => r.name === 'tokenreviews'), { name: 'tokenreviews', singularName: 'tokenreview', namespaced: false, kind: 'TokenReview', verbs: ['create'] });
  });
});
