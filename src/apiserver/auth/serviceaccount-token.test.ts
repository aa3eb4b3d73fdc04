import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/schema/kind.js';
import { parseSigningKey } from '../../machinery/jwt/keys.js';
import { boundClaims, legacyClaims, signToken } from '../../machinery/jwt/tokens.js';
import type { TokenObjectGetter } from './serviceaccount-token-lookup.js';
import { InvalidTokenError, ServiceAccountTokenAuthenticator, type TokenAuthentication } from './serviceaccount-token.js';
import { dependencyKey, TokenCache } from './token-cache.js';

const newKey = () => parseSigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
const key = newKey();
const otherKey = newKey();
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const NOW = 1_800_000_000;

function objects(): { getter: TokenObjectGetter; store: Map<string, KubeObject> } {
  const store = new Map<string, KubeObject>();
  return { store, getter: { get: async (resource, ns, name) => store.get(`${resource}/${resource === 'nodes' ? '' : ns}/${name}`) } };
}

function setup() {
  const { store, getter } = objects();
  store.set('serviceaccounts/ns/bot', { metadata: { name: 'bot', namespace: 'ns', uid: 'sa-uid' } });
  store.set('pods/ns/p', { metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid' } });
  const auth = new ServiceAccountTokenAuthenticator({ issuers: [ISSUER], keys: [key], apiAudiences: [ISSUER], getter, now: () => NOW });
  const bound = (over: Partial<Parameters<typeof boundClaims>[0]> = {}, signer = key) =>
    signToken(boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'ns', name: 'bot', uid: 'sa-uid' }, audiences: [ISSUER], expirationSeconds: 3600, now: NOW - 10, ...over }), signer);
  return { store, auth, bound };
}

function request(token: string | undefined): IncomingMessage {
  return { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } } as unknown as IncomingMessage;
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof InvalidTokenError, String(err));
    assert.equal(err.code, 401);
    return err.detail;
  }
  assert.fail('accepted');
}

describe('service account token authenticator', () => {
  it('a bound token is the service account, with its groups and the pod and credential in extra', async () => {
    const { auth, bound } = setup();
    const token = await bound({ pod: { name: 'p', uid: 'pod-uid' } });
    const user = await auth.authenticate(request(token));
    const jti = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;
    assert.deepEqual(user, {
      name: 'system:serviceaccount:ns:bot',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
      extra: {
        'authentication.kubernetes.io/pod-name': ['p'],
        'authentication.kubernetes.io/pod-uid': ['pod-uid'],
        'authentication.kubernetes.io/credential-id': [`JTI=${jti}`],
      },
    });
    assert.equal(await auth.authenticate(request(undefined)), undefined, 'no bearer token: not this authenticator');
  });

  it('expired, not yet valid, other audience, other key, other issuer → 401 with Kubernetes reason', async () => {
    const { auth, bound } = setup();
    assert.equal(await refusal(auth.authenticate(request(await bound({ now: NOW - 4000, expirationSeconds: 600 })))), 'service account token has expired');
    // go-jose's one-minute leeway.
    assert.ok(await auth.authenticate(request(await bound({ now: NOW - 650, expirationSeconds: 600 }))));
    assert.equal(await refusal(auth.authenticate(request(await bound({ now: NOW + 3600 }))) ), 'service account token is not valid yet');
    assert.equal(await refusal(auth.authenticate(request(await bound({ audiences: ['other'] })))), `token audiences ["other"] is invalid for the target audiences ["${ISSUER}"]`);
    assert.equal(await refusal(auth.authenticate(request(await bound({}, otherKey)))), 'go-jose/go-jose: error in cryptographic primitive');
    assert.equal(await refusal(auth.authenticate(request(await bound({ issuer: 'https://elsewhere' })))), 'invalid bearer token');
    // TokenReview's audiences: the token is for "other" only.
    const r = await auth.authenticateToken(await bound({ audiences: ['other', 'x'] }), ['other']);
    assert.deepEqual(r?.audiences, ['other']);
  });

  it('malformed bearer tokens are 401, never a crash', async () => {
    const { auth, bound } = setup();
    const good = await bound();
    const [h, , s] = good.split('.') as [string, string, string];
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const token of ['x', 'a.b.c', '...', `${h}.${b64({ iss: ISSUER })}.${s}`, `${h}.${b64({ iss: 'kubernetes/serviceaccount' })}.${s}`, `${b64({ alg: 'none' })}.${good.split('.')[1]}.`, good.slice(0, -3)]) {
      await refusal(auth.authenticate(request(token)));
    }
    // A correctly signed token with broken private claims is refused too.
    const broken = await signToken({ iss: ISSUER, sub: 'system:serviceaccount:ns:bot', aud: [ISSUER], exp: NOW + 100, 'kubernetes.io': { namespace: 'ns', serviceaccount: 'bot' } }, key);
    assert.match(await refusal(auth.authenticate(request(broken))), /unexpected private claim/);
    const wrongSub = await signToken({ ...boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'ns', name: 'bot', uid: 'sa-uid' }, audiences: [ISSUER], expirationSeconds: 600, now: NOW }), sub: 'system:serviceaccount:ns:admin' }, key);
    await refusal(auth.authenticate(request(wrongSub)));
  });

  it('a token of a deleted or recreated service account or pod is 401', async () => {
    const { auth, bound, store } = setup();
    const token = await bound({ pod: { name: 'p', uid: 'pod-uid' } });
    store.set('pods/ns/p', { metadata: { name: 'p', namespace: 'ns', uid: 'new-pod' } });
    assert.equal(await refusal(auth.authenticate(request(token))), 'pod UID (new-pod) does not match service account pod ref claim (pod-uid)');
    store.delete('pods/ns/p');
    assert.equal(await refusal(auth.authenticate(request(token))), 'service account token has been invalidated');
    const saToken = await bound();
    store.set('serviceaccounts/ns/bot', { metadata: { name: 'bot', namespace: 'ns', uid: 'other-uid' } });
    assert.equal(await refusal(auth.authenticate(request(saToken))), 'service account UID (other-uid) does not match claim (sa-uid)');
    store.delete('serviceaccounts/ns/bot');
    assert.equal(await refusal(auth.authenticate(request(saToken))), 'service account token has been invalidated');
  });

  it('legacy secret tokens: valid while the secret holds them for the service account', async () => {
    const { auth, store } = setup();
    const token = await signToken(legacyClaims({ namespace: 'ns', name: 'bot', uid: 'sa-uid' }, 'bot-token'), key);
    const secret = { metadata: { name: 'bot-token', namespace: 'ns', uid: 's-uid', annotations: { 'kubernetes.io/service-account.name': 'bot', 'kubernetes.io/service-account.uid': 'sa-uid' } }, type: 'kubernetes.io/service-account-token', data: { token: Buffer.from(token).toString('base64') } };
    store.set('secrets/ns/bot-token', secret);
    assert.deepEqual(await auth.authenticate(request(token)), { name: 'system:serviceaccount:ns:bot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] });
    // For any audience the API accepts (legacy tokens have none).
    assert.deepEqual((await auth.authenticateToken(token))?.audiences, [ISSUER]);
    // Invalidated by label (Kubernetes' legacy token cleaner marks unused ones).
    store.set('secrets/ns/bot-token', { ...secret, metadata: { ...secret.metadata, labels: { 'kubernetes.io/legacy-token-invalid-since': '2026-01-01' } } });
    assert.equal(await refusal(auth.authenticate(request(token))), "the token in secret ns/bot-token for service account ns/bot has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to re-enable it");
    store.set('secrets/ns/bot-token', { ...secret, data: { token: Buffer.from('other').toString('base64') } });
    assert.equal(await refusal(auth.authenticate(request(token))), "service account token does not match server's copy");
    store.set('secrets/ns/bot-token', { ...secret, metadata: { ...secret.metadata, annotations: { 'kubernetes.io/service-account.name': 'someone-else' } } });
    assert.equal(await refusal(auth.authenticate(request(token))), 'service account token has been invalidated');
    store.delete('secrets/ns/bot-token');
    assert.equal(await refusal(auth.authenticate(request(token))), 'service account token has been invalidated');
    store.set('secrets/ns/bot-token', secret);
    store.delete('serviceaccounts/ns/bot');
    assert.equal(await refusal(auth.authenticate(request(token))), 'service account token has been invalidated');
  });

  it('legacy token use is recorded on its Secret once a day', async () => {
    const { store, getter } = objects();
    store.set('serviceaccounts/ns/bot', { metadata: { name: 'bot', namespace: 'ns', uid: 'sa-uid' } });
    const marks: string[] = [];
    const auth = new ServiceAccountTokenAuthenticator({ issuers: [ISSUER], keys: [key], apiAudiences: [ISSUER], getter, now: () => NOW, markLegacyTokenUsed: async (ns, name, date) => void marks.push(`${ns}/${name} ${date}`) });
    const token = await signToken(legacyClaims({ namespace: 'ns', name: 'bot', uid: 'sa-uid' }, 'bot-token'), key);
    const secret = { metadata: { name: 'bot-token', namespace: 'ns', annotations: { 'kubernetes.io/service-account.name': 'bot' } }, data: { token: Buffer.from(token).toString('base64') } };
    store.set('secrets/ns/bot-token', secret);
    await auth.authenticate(request(token));
    const today = new Date(NOW * 1000).toISOString().slice(0, 10);
    assert.deepEqual(marks, [`ns/bot-token ${today}`]);
    store.set('secrets/ns/bot-token', { ...secret, metadata: { ...secret.metadata, labels: { 'kubernetes.io/legacy-token-last-used': today } } });
    await auth.authenticate(request(token));
    assert.equal(marks.length, 1, 'already marked today');
  });

  it('with a cache: a deleted service account or bound pod stops the token within the TTL, or at once when invalidated', async () => {
    const { store, getter } = objects();
    store.set('serviceaccounts/ns/bot', { metadata: { name: 'bot', namespace: 'ns', uid: 'sa-uid' } });
    store.set('pods/ns/p', { metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid' } });
    let nowMs = NOW * 1000;
    const cache = new TokenCache<TokenAuthentication | undefined>({ now: () => nowMs });
    const auth = new ServiceAccountTokenAuthenticator({ issuers: [ISSUER], keys: [key], apiAudiences: [ISSUER], getter, cache, now: () => Math.floor(nowMs / 1000) });
    const token = await signToken(boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'ns', name: 'bot', uid: 'sa-uid' }, audiences: [ISSUER], expirationSeconds: 3600, now: NOW - 10 }), key);
    assert.ok(await auth.authenticate(request(token)));
    // Deleted without anyone telling the cache: remembered until the TTL is over, then refused.
    store.delete('serviceaccounts/ns/bot');
    assert.ok(await auth.authenticate(request(token)));
    nowMs += 9_000;
    assert.ok(await auth.authenticate(request(token)));
    nowMs += 1_000;
    assert.equal(await refusal(auth.authenticate(request(token))), 'service account token has been invalidated');
    // Told (the feed follows the watch cache): refused at once.
    store.set('serviceaccounts/ns/bot', { metadata: { name: 'bot', namespace: 'ns', uid: 'sa-uid' } });
    const podToken = await signToken(boundClaims({ issuer: ISSUER, serviceAccount: { namespace: 'ns', name: 'bot', uid: 'sa-uid' }, audiences: [ISSUER], expirationSeconds: 3600, now: NOW - 10, pod: { name: 'p', uid: 'pod-uid' } }), key);
    assert.ok(await auth.authenticate(request(podToken)));
    store.delete('pods/ns/p');
    cache.invalidate(dependencyKey('pods', 'ns', 'p'));
    assert.equal(await refusal(auth.authenticate(request(podToken))), 'service account token has been invalidated');
  });
});
