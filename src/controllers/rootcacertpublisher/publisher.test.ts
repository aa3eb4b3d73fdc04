import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { ROOT_CA_CONFIGMAP, RootCACertPublisher } from './controller.js';

const CM = { group: '', resource: 'configmaps' };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('every live namespace gets kube-root-ca.crt with the CA; a changed one is put back', async () => {
  const going = obj('v1', 'Namespace', 'going', { deletionTimestamp: '2026-01-01T00:00:00Z' });
  const ctx = fakeControllerContext({ objects: [obj('v1', 'Namespace', 'a', {}), going] });
  const c = new RootCACertPublisher(ctx, CA);
  await flush();
  await c.sync('a');
  await c.sync('going');
  await flush();
  assert.deepEqual(ctx.clientset.tracker.get(CM, 'a', ROOT_CA_CONFIGMAP)?.data, { 'ca.crt': CA });
  assert.equal(ctx.clientset.tracker.get(CM, 'going', ROOT_CA_CONFIGMAP), undefined);
  const client = ctx.clientset.resource({ group: '', version: 'v1', resource: 'configmaps' });
  const cm = ctx.clientset.tracker.get(CM, 'a', ROOT_CA_CONFIGMAP)!;
  await client.update('a', { ...cm, data: { 'ca.crt': 'tampered', extra: 'x' } });
  await flush();
  assert.ok(c.queue.len() > 0, 'the change is queued');
  await c.sync('a');
  await flush();
  assert.deepEqual(ctx.clientset.tracker.get(CM, 'a', ROOT_CA_CONFIGMAP)?.data, { 'ca.crt': CA });
});
