// RBAC rule matching and coverage, case by case as Kubernetes' rbac/v1 helpers decide them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attributes } from '../types.js';
import { compactRules, compactString, covers, ruleAllows, type Rule } from './rules.js';

const user = { name: 'u', groups: [] };

function rule(r: Partial<Rule>): Rule {
  return { verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...r };
}

function resource(verb: string, apiGroup: string, res: string, subresource = '', name = ''): Attributes {
  return { user, verb, resourceRequest: true, apiGroup, apiVersion: 'v1', namespace: 'ns', resource: res, subresource, name, path: '' };
}

function path(verb: string, p: string): Attributes {
  return { user, verb, resourceRequest: false, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path: p };
}

const MANY_NAMES = Array.from({ length: 10_000 }, (_, i) => `n-${i}`);

test('resource rules: verbs, groups, resources, subresources and names as Kubernetes matches them', () => {
  const cases: Array<[Partial<Rule>, Attributes, boolean]> = [
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, resource('get', '', 'pods'), true],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, resource('list', '', 'pods'), false],
    [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }, resource('deletecollection', '', 'pods'), true],
    [{ verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, resource('get', '', 'pods'), false],
    [{ verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, resource('get', 'apps', 'deployments'), true],
    [{ verbs: ['get'], apiGroups: [''], resources: ['*'] }, resource('get', '', 'secrets'), true],
    // `*` covers subresources too; a plain resource does not.
    [{ verbs: ['get'], apiGroups: [''], resources: ['*'] }, resource('get', '', 'pods', 'log'), true],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, resource('get', '', 'pods', 'log'), false],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, resource('get', '', 'pods', 'log'), true],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, resource('get', '', 'pods'), false],
    [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, resource('get', 'apps', 'deployments', 'scale'), true],
    [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, resource('get', 'apps', 'deployments'), false],
    [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, resource('get', 'apps', 'deployments', 'status'), false],
    // `pods/*` is not a wildcard.
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, resource('get', '', 'pods', 'log'), false],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, resource('get', '', 'pods', '', 'a'), true],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, resource('get', '', 'pods', '', 'b'), false],
    // A list has no name: rules limited to names never allow it.
    [{ verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, resource('list', '', 'pods'), false],
    // A long list of names (looked up in a set) matches as a short one does.
    [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: MANY_NAMES }, resource('impersonate', '', 'users', '', 'n-9999'), true],
    [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: MANY_NAMES }, resource('impersonate', '', 'users', '', 'n-10000'), false],
    [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: MANY_NAMES }, resource('impersonate', '', 'users'), false],
    // Resource rules never allow paths, and URL rules never allow resources.
    [{ verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, path('get', '/healthz'), false],
    [{ verbs: ['get'], nonResourceURLs: ['*'] }, resource('get', '', 'pods'), false],
  ];
  for (const [r, attrs, want] of cases) assert.equal(ruleAllows(attrs, rule(r)), want, `${JSON.stringify(r)} ${attrs.verb} ${attrs.apiGroup}/${attrs.resource}/${attrs.subresource}/${attrs.name}`);
});

test('non-resource URL rules: exact paths and trailing-star prefixes', () => {
  const cases: Array<[string[], string, string, boolean]> = [
    [['/healthz'], 'get', '/healthz', true],
    [['/healthz'], 'get', '/healthz/etcd', false],
    [['/healthz/*'], 'get', '/healthz/etcd', true],
    [['/healthz/*'], 'get', '/healthz', false],
    [['/api*'], 'get', '/apis/apps', true],
    [['*'], 'post', '/anything', false],
    [['*'], 'get', '/anything', true],
  ];
  for (const [urls, verb, p, want] of cases) assert.equal(ruleAllows(path(verb, p), rule({ verbs: ['get'], nonResourceURLs: urls })), want, `${urls} ${verb} ${p}`);
});

test('covers: owner rules must cover every verb × group × resource × name of the requested ones', () => {
  const owner = [rule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', '*/status'] }), rule({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] })];
  assert.deepEqual(covers(owner, [rule({ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] })]), { covered: true, missing: [] });
  assert.equal(covers(owner, [rule({ verbs: ['get'], apiGroups: [''], resources: ['deployments/status'] })]).covered, true);
  assert.equal(covers(owner, [rule({ verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] })]).covered, true);
  const { covered, missing } = covers(owner, [rule({ verbs: ['get', 'delete'], apiGroups: ['', 'apps'], resources: ['pods'] })]);
  assert.equal(covered, false);
  assert.deepEqual(compactRules(missing).map(compactString), [
    '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    '{APIGroups:["apps"], Resources:["pods"], Verbs:["get" "delete"]}',
  ]);
  // Owner limited to names does not cover every name.
  assert.equal(covers([rule({ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] })], [rule({ verbs: ['get'], apiGroups: [''], resources: ['pods'] })]).covered, false);
  assert.equal(covers([rule({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] })], [rule({ verbs: ['escalate'], apiGroups: ['x'], resources: ['y/z'] })]).covered, true);
});
