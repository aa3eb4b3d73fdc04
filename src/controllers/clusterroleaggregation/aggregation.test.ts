// The union an aggregated ClusterRole gets: matched roles in name order, each rule once, itself
// excluded, several selectors OR-ed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregatedRules } from './aggregation.js';

const role = (name: string, labels: Record<string, string>, rules: object[], aggregate?: object[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
  ...(aggregate ? { aggregationRule: { clusterRoleSelectors: aggregate } } : {}),
});

test('aggregated rules: union of the matched roles, by name, without duplicates', () => {
  const get = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
  const list = { verbs: ['list'], apiGroups: [''], resources: ['pods'] };
  const del = { verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments'] };
  const target = role('agg', { a: 'true' }, [del], [{ matchLabels: { a: 'true' } }, { matchExpressions: [{ key: 'b', operator: 'Exists' }] }]);
  const all = [target, role('z-role', { a: 'true' }, [list, get]), role('b-role', { b: 'x' }, [get]), role('other', {}, [del])];
  assert.deepEqual(aggregatedRules(target, all), [list, get]);
  // The second selector's roles come after the first's.
  const ordered = role('agg', {}, [], [{ matchLabels: { b: 'x' } }, { matchLabels: { a: 'true' } }]);
  assert.deepEqual(aggregatedRules(ordered, all), [get, list]);
  assert.deepEqual(aggregatedRules(role('none', {}, [], [{ matchLabels: { c: '1' } }]), all), []);
});
