// Cases of k8s.io/apiserver's rules_test.go (group, version, operation, resource, scope), each
// rule completed with `*` in the other dimensions so that one dimension is tested at a time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Operation } from '../types.js';
import { namedRuleMatches, ruleMatches, type RuleRequest, type RuleWithOperations } from './rules.js';

const ANY: RuleWithOperations = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*', '*'] };
const req = (group: string, version: string, resource: string, subresource = '', operation: Operation = 'CREATE', namespace = 'ns'): RuleRequest => ({ group, version, resource, subresource, operation, namespace });
const cluster = (group: string, version: string, resource: string, subresource = '') => req(group, version, resource, subresource, 'CREATE', '');

const table: Array<{ name: string; rule: RuleWithOperations; match: RuleRequest[]; noMatch: RuleRequest[] }> = [
  { name: 'group wildcard', rule: { ...ANY, apiGroups: ['*'] }, match: [req('g', 'v', 'r')], noMatch: [] },
  { name: 'group exact', rule: { ...ANY, apiGroups: ['g1', 'g2'] }, match: [req('g1', 'v', 'r'), req('g2', 'v2', 'r3')], noMatch: [req('g3', 'v', 'r'), req('g4', 'v', 'r')] },
  { name: 'version wildcard', rule: { ...ANY, apiVersions: ['*'] }, match: [req('g', 'v', 'r')], noMatch: [] },
  { name: 'version exact', rule: { ...ANY, apiVersions: ['v1', 'v2'] }, match: [req('g1', 'v1', 'r'), req('g2', 'v2', 'r')], noMatch: [req('g1', 'v3', 'r'), req('g2', 'v4', 'r')] },
  { name: 'operation wildcard', rule: { ...ANY, operations: ['*'] }, match: [req('g', 'v', 'r', '', 'CREATE'), req('g', 'v', 'r', '', 'UPDATE'), req('g', 'v', 'r', '', 'DELETE')], noMatch: [] },
  { name: 'operation create', rule: { ...ANY, operations: ['CREATE'] }, match: [req('g', 'v', 'r', '', 'CREATE')], noMatch: [req('g', 'v', 'r', '', 'UPDATE'), req('g', 'v', 'r', '', 'DELETE')] },
  { name: 'operation update', rule: { ...ANY, operations: ['UPDATE'] }, match: [req('g', 'v', 'r', '', 'UPDATE')], noMatch: [req('g', 'v', 'r', '', 'CREATE'), req('g', 'v', 'r', '', 'DELETE')] },
  { name: 'operation delete', rule: { ...ANY, operations: ['DELETE'] }, match: [req('g', 'v', 'r', '', 'DELETE')], noMatch: [req('g', 'v', 'r', '', 'CREATE'), req('g', 'v', 'r', '', 'UPDATE')] },
  { name: 'no subresources', rule: { ...ANY, resources: ['*'] }, match: [req('g', 'v', 'r'), req('2', 'v', 'r2')], noMatch: [req('g', 'v', 'r', 'exec'), req('2', 'v', 'r2', 'proxy')] },
  { name: 'r & subresources', rule: { ...ANY, resources: ['r/*'] }, match: [req('g', 'v', 'r'), req('g', 'v', 'r', 'exec')], noMatch: [req('2', 'v', 'r2'), req('2', 'v', 'r2', 'proxy')] },
  { name: 'r & subresources or r2', rule: { ...ANY, resources: ['r/*', 'r2'] }, match: [req('g', 'v', 'r'), req('g', 'v', 'r', 'exec'), req('2', 'v', 'r2')], noMatch: [req('2', 'v', 'r2', 'proxy')] },
  { name: 'proxy or exec', rule: { ...ANY, resources: ['*/proxy', '*/exec'] }, match: [req('g', 'v', 'r', 'exec'), req('2', 'v', 'r2', 'proxy'), req('2', 'v', 'r3', 'proxy')], noMatch: [req('g', 'v', 'r'), req('2', 'v', 'r2'), req('2', 'v', 'r4', 'scale')] },
  {
    name: 'cluster scope',
    rule: { ...ANY, scope: 'Cluster' },
    match: [cluster('g', 'v', 'r'), cluster('g', 'v', 'r', 'exec'), cluster('', 'v1', 'namespaces'), cluster('', 'v1', 'namespaces', 'finalize'), req('', 'v1', 'namespaces'), req('', 'v1', 'namespaces', 'finalize')],
    noMatch: [req('g', 'v', 'r'), req('g', 'v', 'r', 'exec')],
  },
  {
    name: 'namespace scope',
    rule: { ...ANY, scope: 'Namespaced' },
    match: [req('g', 'v', 'r'), req('g', 'v', 'r', 'exec')],
    noMatch: [cluster('', 'v1', 'namespaces'), cluster('', 'v1', 'namespaces', 'finalize'), req('', 'v1', 'namespaces'), req('', 'v1', 'namespaces', 'finalize'), cluster('g', 'v', 'r'), cluster('g', 'v', 'r', 'exec')],
  },
  {
    name: 'all scopes',
    rule: { ...ANY, scope: '*' },
    match: [req('g', 'v', 'r'), req('g', 'v', 'r', 'exec'), cluster('g', 'v', 'r'), cluster('g', 'v', 'r', 'exec'), cluster('', 'v1', 'namespaces'), cluster('', 'v1', 'namespaces', 'finalize'), req('', 'v1', 'namespaces'), req('', 'v1', 'namespaces', 'finalize')],
    noMatch: [],
  },
];

describe('admission rules', () => {
  for (const tt of table) {
    it(tt.name, () => {
      for (const r of tt.match) assert.equal(ruleMatches(tt.rule, r), true, `${tt.name}: expected match ${JSON.stringify(r)}`);
      for (const r of tt.noMatch) assert.equal(ruleMatches(tt.rule, r), false, `${tt.name}: expected no match ${JSON.stringify(r)}`);
    });
  }

  it('resourceNames narrow a rule to the named objects', () => {
    const rule = { ...ANY, resourceNames: ['a', 'b'] };
    assert.equal(namedRuleMatches(rule, req('g', 'v', 'r'), 'a'), true);
    assert.equal(namedRuleMatches(rule, req('g', 'v', 'r'), 'c'), false);
    assert.equal(namedRuleMatches({ ...ANY, resourceNames: [] }, req('g', 'v', 'r'), 'c'), true);
  });
});
