import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { parseSigningKey } from '../../machinery/jwt/keys.js';
import { LEGACY_ISSUER, verifySignature } from '../../machinery/jwt/tokens.js';
import { obj } from '../common/testutil.js';
import { SA_NAME_ANNOTATION, SA_UID_ANNOTATION, SERVICE_ACCOUNT_TOKEN_TYPE, TokensController } from './controller.js';

const SECRETS = { group: '', resource: 'secrets' };
const key = parseSigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

function tokenSecret(name: string, sa: string, uid?: string) {
  const s = obj('v1', 'Secret', name, { namespace: 'ns', annotations: { [SA_NAME_ANNOTATION]: sa, ...(uid ? { [SA_UID_ANNOTATION]: uid } : {}) } });
  s.type = SERVICE_ACCOUNT_TOKEN_TYPE;
  return s;
}

test('fills a token Secret with a legacy token, the namespace and ca.crt; deletes it with its service account', async () => {
  const sa = obj('v1', 'ServiceAccount', 'bot', { namespace: 'ns', uid: 'sa-uid' });
  const ctx = fakeControllerContext({ objects: [sa, tokenSecret('bot-token', 'bot'), tokenSecret('orphan', 'ghost'), obj('v1', 'Secret', 'plain', { namespace: 'ns' })] });
  const c = new TokensController(ctx, { signingKey: key, rootCA: CA });
  await flush();
  await c.sync('secret/ns/bot-token');
  await c.sync('secret/ns/orphan');
  await c.sync('secret/ns/plain');
  await flush();
  const filled = ctx.clientset.tracker.get(SECRETS, 'ns', 'bot-token')!;
  const data = filled.data as Record<string, string>;
  assert.equal(Buffer.from(data.namespace!, 'base64').toString(), 'ns');
  assert.equal(Buffer.from(data['ca.crt']!, 'base64').toString(), CA);
  const claims = await verifySignature(Buffer.from(data.token!, 'base64').toString(), [key]);
  assert.equal(claims.iss, LEGACY_ISSUER);
  assert.equal(claims['kubernetes.io/serviceaccount/secret.name'], 'bot-token');
  assert.equal(claims['kubernetes.io/serviceaccount/service-account.uid'], 'sa-uid');
  assert.equal(((filled.metadata as Record<string, unknown>).annotations as Record<string, string>)[SA_UID_ANNOTATION], 'sa-uid');
  assert.equal(ctx.clientset.tracker.get(SECRETS, 'ns', 'orphan'), undefined, 'a token Secret of a missing service account is deleted');
  assert.ok(ctx.clientset.tracker.get(SECRETS, 'ns', 'plain'), 'other Secrets are left alone');

  // A second sync of a complete Secret writes nothing.
  const writes = ctx.clientset.actions.filter((a) => a.verb === 'update').length;
  await flush();
  await c.sync('secret/ns/bot-token');
  assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'update').length, writes);

  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'serviceaccounts' }).delete('ns', 'bot');
  await flush();
  assert.ok(c.queue.len() > 0, 'the deletion is queued');
  await c.sync('sa/ns/bot/sa-uid');
  await flush();
  assert.equal(ctx.clientset.tracker.get(SECRETS, 'ns', 'bot-token'), undefined);
});

test('a token Secret naming another uid than the service account has is deleted', async () => {
  const ctx = fakeControllerContext({ objects: [obj('v1', 'ServiceAccount', 'bot', { namespace: 'ns', uid: 'new' }), tokenSecret('old-token', 'bot', 'old')] });
  const c = new TokensController(ctx, { signingKey: key, rootCA: '' });
  await flush();
  await c.sync('secret/ns/old-token');
  await flush();
  assert.equal(ctx.clientset.tracker.get(SECRETS, 'ns', 'old-token'), undefined);
});
