import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { ServiceAccountsController } from './controller.js';

const SA = { group: '', resource: 'serviceaccounts' };

test('every namespace gets a default service account; terminating ones do not; deleted ones come back', async () => {
  const terminating = obj('v1', 'Namespace', 'going', {});
  (terminating.metadata as Record<string, unknown>).deletionTimestamp = '2026-01-01T00:00:00Z';
  const ctx = fakeControllerContext({ objects: [obj('v1', 'Namespace', 'a', {}), obj('v1', 'Namespace', 'b', {}), terminating, obj('v1', 'ServiceAccount', 'default', { namespace: 'b' })] });
  const c = new ServiceAccountsController(ctx);
  await flush();
  for (const ns of ['a', 'b', 'going']) await c.sync(ns);
  await flush();
  assert.ok(ctx.clientset.tracker.get(SA, 'a', 'default'), 'created in a');
  assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'create').length, 1, 'b had one, going is terminating');
  assert.equal(ctx.clientset.tracker.get(SA, 'going', 'default'), undefined);
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'serviceaccounts' }).delete('a', 'default');
  await flush();
  assert.ok(c.queue.len() > 0, 'a deletion requeues the namespace');
  await c.sync('a');
  assert.ok(ctx.clientset.tracker.get(SA, 'a', 'default'), 'recreated');
});
