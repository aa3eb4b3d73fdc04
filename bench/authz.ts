// `npm run bench -- authz`: the cost of one authorization decision, in process, against a policy
// the size of a busy cluster (the default roles and bindings plus 2,000 RoleBindings in 200
// namespaces and 200 ClusterRoles): the RBAC authorizer answering from its decision cache, the
// RBAC evaluation itself (bindings looked up by subject, rules matched), and AlwaysAllow for
// comparison. The API server's end-to-end figures (`npm run bench -- apiserver
// --authorization-mode=RBAC|AlwaysAllow`) move with the machine's load; these do not.
import { alwaysAllow } from '../src/apiserver/auth/always-allow.js';
import { UnionAuthorizer } from '../src/apiserver/auth/modes.js';
import { RbacAuthorizer } from '../src/apiserver/auth/rbac/authorizer.js';
import { bootstrapPolicy } from '../src/apiserver/auth/rbac/bootstrap-policy.js';
import { controllerRoles } from '../src/controller-manager/controllers.js';
import { PolicyIndex } from '../src/apiserver/auth/rbac/policy.js';
import type { Attributes, Authorizer } from '../src/apiserver/auth/types.js';
import type { BenchReport, BenchRow } from './report.js';

const RBAC = 'rbac.authorization.k8s.io';

function policy(): PolicyIndex {
  const index = new PolicyIndex();
  const { clusterRoles, clusterRoleBindings } = bootstrapPolicy(controllerRoles());
  for (const r of clusterRoles) index.apply('clusterroles', '', String((r.metadata as { name: string }).name), r);
  for (const b of clusterRoleBindings) index.apply('clusterrolebindings', '', String((b.metadata as { name: string }).name), b);
  // The aggregated edit role's rules, as the controller would have filled them.
  const edit = index.get('clusterroles', '', 'system:aggregate-to-edit')!;
  const view = index.get('clusterroles', '', 'system:aggregate-to-view')!;
  index.apply('clusterroles', '', 'edit', { ...index.get('clusterroles', '', 'edit')!, rules: [...(edit.rules as unknown[]), ...(view.rules as unknown[])] });
  for (let i = 0; i < 200; i++) {
    index.apply('clusterroles', '', `custom-${i}`, { metadata: { name: `custom-${i}` }, rules: [{ verbs: ['get', 'list'], apiGroups: [`g${i}.example.com`], resources: ['things'] }] });
    for (let j = 0; j < 10; j++) {
      const ns = `ns-${i}`;
      index.apply('rolebindings', ns, `rb-${j}`, {
        metadata: { name: `rb-${j}`, namespace: ns },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: j === 0 ? 'edit' : `custom-${(i + j) % 200}` },
        subjects: [{ kind: 'User', apiGroup: RBAC, name: `user-${i}-${j}` }, { kind: 'Group', apiGroup: RBAC, name: `team-${i}` }, { kind: 'ServiceAccount', name: `sa-${j}` }],
      });
    }
  }
  return index;
}

function attrs(i: number): Attributes {
  // A user of team 7 creating pods in its namespace through the edit RoleBinding.
  return { user: { name: `user-7-${i % 10}`, groups: ['team-7', 'system:authenticated'] }, verb: 'create', resourceRequest: true, apiGroup: '', apiVersion: 'v1', namespace: 'ns-7', resource: 'pods', subresource: '', name: '', path: '' };
}

function nsPerOp(authorizer: Authorizer, ops: number, prepare?: () => void): number {
  const sample = Array.from({ length: 10 }, (_, i) => attrs(i));
  for (let i = 0; i < 10_000; i++) authorizer.authorize(sample[i % 10]!);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) {
    prepare?.();
    const r = authorizer.authorize(sample[i % 10]!) as { decision: string };
    if (r.decision !== 'allow') throw new Error('not allowed');
  }
  return Number(process.hrtime.bigint() - t0) / ops;
}

export async function run(): Promise<BenchReport> {
  const index = policy();
  const rbac = new RbacAuthorizer(index);
  const union = new UnionAuthorizer([rbac]);
  const rows: BenchRow[] = [];
  const row = (metric: string, ns: number) => rows.push({ metric, unit: 'ns per decision', values: { figure: Math.round(ns) } });
  row('AlwaysAllow', nsPerOp(new UnionAuthorizer([alwaysAllow]), 2_000_000));
  row('RBAC, cached decision', nsPerOp(union, 2_000_000));
  // Every decision evaluated: the policy generation moves before each call.
  row('RBAC, evaluated (cache cleared every call)', nsPerOp(union, 200_000, () => index.generation++));
  return {
    name: 'authz',
    columns: ['figure'],
    rows,
    notes: ['Policy: the default roles and bindings, 200 extra ClusterRoles, 2,000 RoleBindings in 200 namespaces (3 subjects each); the request: create pods in its namespace, allowed by a RoleBinding to edit (its ~30 rules).'],
  };
}
