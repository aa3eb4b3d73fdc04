import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { INVALID_SINCE_LABEL, LAST_USED_LABEL, LegacyTokenCleaner, TRACKING_CONFIG_MAP } from './controller.js';

const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const DAY = 24 * 3600_000;
const NOW = Date.parse('2027-06-15T12:00:00Z');
const PERIOD = 30 * DAY;

const token = (name: string, o: { created?: string; labels?: Record<string, string>; sa?: string; saUid?: string } = {}): KubeObject => ({
  ...obj('v1', 'Secret', name, {
    namespace: 'ns',
    creationTimestamp: o.created ?? '2027-01-01T00:00:00Z',
    ...(o.labels ? { labels: o.labels } : {}),
    annotations: { 'kubernetes.io/service-account.name': o.sa ?? 'bot', ...(o.saUid ? { 'kubernetes.io/service-account.uid': o.saUid } : {}) },
  }),
  type: 'kubernetes.io/service-account-token',
});

function setup(trackedSince: string) {
  const objects: KubeObject[] = [
    obj('v1', 'ConfigMap', TRACKING_CONFIG_MAP, { namespace: 'kube-system' }),
    { ...obj('v1', 'ServiceAccount', 'bot', { namespace: 'ns', uid: 'sa-uid' }), secrets: ['unused', 'recent', 'used-recently', 'mounted', 'invalid-old', 'invalid-new', 'wrong-uid'].map((name) => ({ name })) },
    token('unused'),
    token('recent', { created: '2027-06-01T00:00:00Z' }),
    token('used-recently', { labels: { [LAST_USED_LABEL]: '2027-06-10' } }),
    token('used-long-ago-but-unlisted', { labels: { [LAST_USED_LABEL]: '2027-01-10' } }),
    token('mounted'),
    token('invalid-old', { labels: { [LAST_USED_LABEL]: '2027-02-01', [INVALID_SINCE_LABEL]: '2027-04-01' } }),
    token('invalid-new', { labels: { [INVALID_SINCE_LABEL]: '2027-06-01' } }),
    token('wrong-uid', { saUid: 'other-uid' }),
    obj('v1', 'Pod', 'app', { namespace: 'ns', spec: { containers: [{ name: 'c' }], volumes: [{ name: 't', secret: { secretName: 'mounted' } }] } }),
  ];
  (objects[0] as { data?: unknown }).data = { since: trackedSince };
  const ctx = fakeControllerContext({ objects, now: NOW, options: { legacyServiceAccountTokenCleanUpPeriod: PERIOD } });
  return { ctx, c: new LegacyTokenCleaner(ctx) };
}

test('unused auto-generated legacy tokens are marked invalid, and deleted once invalid for the period; used, recent, mounted or foreign ones are kept', async () => {
  const { ctx, c } = setup('2027-01-01');
  await flush(3);
  await c.evaluate();
  const writes = ctx.clientset.actionStrings({ writesOnly: true }).sort();
  assert.deepEqual(writes, ['delete secrets ns/invalid-old', 'patch secrets ns/unused']);
  const unused = ctx.clientset.tracker.get(SECRETS, 'ns', 'unused')!;
  assert.equal((unused.metadata as { labels: Record<string, string> }).labels[INVALID_SINCE_LABEL], '2027-06-15');
});

test('nothing happens before legacy token use has been tracked for the whole period', async () => {
  const { ctx, c } = setup('2027-05-20');
  await flush(3);
  await c.evaluate();
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), []);
});
