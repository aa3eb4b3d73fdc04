// Cases of k8s.io/apiserver's policy matching_test.go: exact and equivalent rules (deployments
// served as apps/v1, apps/v1beta1 and extensions/v1beta1, co-located as there), exclusions, empty
// rules, and selectors that cannot be parsed (an error only when the rules match).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import type { KindVersion } from '../../../api/schema/kind.js';
import type { AdmissionAttributes } from '../types.js';
import { builtinEquivalents, matches, type MatchContext, type MatchResources } from './matching.js';

const appsV1 = findResource('apps', 'v1', 'deployments') as KindVersion;
const appsV1beta1: KindVersion = { ...appsV1, version: 'v1beta1', storage: false };
const extensionsV1beta1: KindVersion = { ...appsV1, group: 'extensions', version: 'v1beta1', storage: false };
const deploymentKinds = [appsV1, appsV1beta1, extensionsV1beta1];
const pods = findResource('', 'v1', 'pods') as KindVersion;

const ctx: MatchContext = {
  namespaceLabels: async () => ({ env: 'prod' }),
  equivalents: (kind) => (kind.resource === 'deployments' ? deploymentKinds.filter((k) => k !== kind) : []),
};

const write = (kind: KindVersion, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', kind, group: kind.group, resource: kind.resource, subresource: '', namespace: 'ns', name: 'name', object: { metadata: { name: 'name' } }, user: { name: 'u', groups: [] }, dryRun: false, ...over,
});
const rule = (apiGroups: string[], apiVersions: string[], resources: string[], extra: Record<string, unknown> = {}) => ({ operations: ['*'], apiGroups, apiVersions, resources, scope: '*', ...extra });
const everything = { namespaceSelector: {}, objectSelector: {} };

const cases: Array<{ name: string; criteria: MatchResources; attrs: AdmissionAttributes; matches: boolean; as?: string; error?: RegExp }> = [
  { name: 'no rules (just write)', criteria: { namespaceSelector: {}, resourceRules: [] }, attrs: write(appsV1), matches: false },
  { name: 'wildcard rule, match as requested', criteria: { ...everything, resourceRules: [rule(['*'], ['*'], ['*'])] }, attrs: write(appsV1), matches: true, as: 'apps/v1' },
  { name: 'specific rules, prefer exact match', criteria: { ...everything, resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1'], ['deployments'])] }, attrs: write(appsV1), matches: true, as: 'apps/v1' },
  { name: 'specific rules, match miss', criteria: { ...everything, resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1), matches: false },
  { name: 'specific rules, exact match miss', criteria: { ...everything, matchPolicy: 'Exact', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1), matches: false },
  { name: 'specific rules, equivalent match, prefer extensions', criteria: { ...everything, matchPolicy: 'Equivalent', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1), matches: true, as: 'extensions/v1beta1' },
  { name: 'specific rules, equivalent match, prefer apps', criteria: { ...everything, matchPolicy: 'Equivalent', resourceRules: [rule(['apps'], ['v1beta1'], ['deployments']), rule(['extensions'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1), matches: true, as: 'apps/v1beta1' },
  { name: 'specific rules, prefer exact match and name match', criteria: { ...everything, resourceRules: [rule(['apps'], ['v1'], ['deployments'], { resourceNames: ['name'] })] }, attrs: write(appsV1), matches: true, as: 'apps/v1' },
  { name: 'specific rules, prefer exact match and name match miss', criteria: { ...everything, resourceRules: [rule(['apps'], ['v1'], ['deployments'], { resourceNames: ['other'] })] }, attrs: write(appsV1), matches: false },
  { name: 'equivalent match and name match', criteria: { ...everything, matchPolicy: 'Equivalent', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'], { resourceNames: ['name'] })] }, attrs: write(appsV1), matches: true, as: 'extensions/v1beta1' },
  { name: 'equivalent match and name match miss', criteria: { ...everything, matchPolicy: 'Equivalent', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'], { resourceNames: ['other'] })] }, attrs: write(appsV1), matches: false },
  { name: 'a request made in another version matches that version exactly (requestKind)', criteria: { ...everything, matchPolicy: 'Exact', resourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1, { requestKind: extensionsV1beta1 }), matches: true, as: 'extensions/v1beta1' },
  { name: 'a request made in another version does not match its storage version exactly', criteria: { ...everything, matchPolicy: 'Exact', resourceRules: [rule(['apps'], ['v1'], ['deployments'])] }, attrs: write(appsV1, { requestKind: extensionsV1beta1 }), matches: false },
  { name: 'a request made in another version matches its storage version as an equivalent', criteria: { ...everything, matchPolicy: 'Equivalent', resourceRules: [rule(['apps'], ['v1'], ['deployments'])] }, attrs: write(appsV1, { requestKind: extensionsV1beta1 }), matches: true, as: 'apps/v1' },
  { name: 'exclude resource match on miss', criteria: { ...everything, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1), matches: true, as: 'apps/v1' },
  { name: 'exclude resource miss on match', criteria: { ...everything, resourceRules: [rule(['*'], ['*'], ['*'])], excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])] }, attrs: write(extensionsV1beta1), matches: false },
  { name: 'treat empty ResourceRules as match', criteria: { ...everything, excludeResourceRules: [rule(['extensions'], ['v1beta1'], ['deployments'])] }, attrs: write(appsV1), matches: true },
  { name: 'treat non-empty ResourceRules as no match', criteria: { ...everything, resourceRules: [{}] }, attrs: write(appsV1), matches: false },
  {
    name: "erroring namespace selector on otherwise non-matching rule doesn't error",
    criteria: { namespaceSelector: { matchExpressions: [{ key: 'key ', operator: 'In', values: ['bad value'] }] }, objectSelector: {}, resourceRules: [rule(['*'], ['*'], ['deployments'])] },
    attrs: write(pods),
    matches: false,
  },
  {
    name: 'erroring namespace selector on otherwise matching rule errors',
    criteria: { namespaceSelector: { matchExpressions: [{ key: 'key', operator: 'In', values: ['bad value'] }] }, objectSelector: {}, resourceRules: [rule(['*'], ['*'], ['pods'])] },
    attrs: write(pods),
    matches: false,
    error: /bad value/,
  },
  {
    name: "erroring object selector on otherwise non-matching rule doesn't error",
    criteria: { namespaceSelector: {}, objectSelector: { matchExpressions: [{ key: 'key', operator: 'In', values: ['bad value'] }] }, resourceRules: [rule(['*'], ['*'], ['deployments'])] },
    attrs: write(pods),
    matches: false,
  },
  {
    name: 'erroring object selector on otherwise matching rule errors',
    criteria: { namespaceSelector: {}, objectSelector: { matchExpressions: [{ key: 'key', operator: 'In', values: ['bad value'] }] }, resourceRules: [rule(['*'], ['*'], ['pods'])] },
    attrs: write(pods),
    matches: false,
    error: /bad value/,
  },
];

describe('policy matching', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const r = await matches(c.criteria, c.attrs, ctx);
      assert.equal(r.matches, c.matches);
      if (c.as) assert.equal(`${r.as!.kind.group}/${r.as!.kind.version}`, c.as);
      if (c.error) assert.match(r.error?.message ?? '', c.error);
      else assert.equal(r.error, undefined);
    });
  }

  it('a Namespace being written is matched on its own labels; other requests on their namespace', async () => {
    const namespaces = findResource('', 'v1', 'namespaces') as KindVersion;
    const criteria = { namespaceSelector: { matchLabels: { team: 'a' } }, objectSelector: {} };
    const ns = (labels: Record<string, string>) => write(namespaces, { namespace: 'n', object: { metadata: { name: 'n', labels } } });
    assert.equal((await matches(criteria, ns({ team: 'a' }), ctx)).matches, true);
    assert.equal((await matches(criteria, ns({ team: 'b' }), ctx)).matches, false);
    assert.equal((await matches({ namespaceSelector: { matchLabels: { env: 'prod' } }, objectSelector: {} }, write(pods), ctx)).matches, true);
    // A cluster-scoped request is not subject to the namespace selector.
    const nodes = findResource('', 'v1', 'nodes') as KindVersion;
    assert.equal((await matches(criteria, write(nodes, { namespace: '' }), ctx)).matches, true);
  });

  it('the object selector matches the new or the old object', async () => {
    const criteria = { namespaceSelector: {}, objectSelector: { matchLabels: { app: 'web' } } };
    const labelled = { metadata: { name: 'name', labels: { app: 'web' } } };
    assert.equal((await matches(criteria, write(pods, { operation: 'UPDATE', object: { metadata: { name: 'name' } }, oldObject: labelled }), ctx)).matches, true);
    assert.equal((await matches(criteria, write(pods, { operation: 'DELETE', object: undefined, oldObject: labelled }), ctx)).matches, true);
    assert.equal((await matches(criteria, write(pods), ctx)).matches, false);
  });

  it('built-in equivalents are the other versions stored together', () => {
    const hpaV2 = findResource('autoscaling', 'v2', 'horizontalpodautoscalers') as KindVersion;
    assert.deepEqual(builtinEquivalents(hpaV2).map((k) => `${k.group}/${k.version}`), ['autoscaling/v1']);
  });
});
