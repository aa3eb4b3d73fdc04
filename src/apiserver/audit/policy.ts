// The audit policy (audit.k8s.io/v1 Policy, kube-apiserver's --audit-policy-file): an ordered list
// of rules, the first that matches a request giving its level (None, Metadata, Request,
// RequestResponse) and the stages not to record; no rule matching is None. As
// k8s.io/apiserver/pkg/audit/policy: users, userGroups, verbs, resources (group, `resource`,
// `resource/subresource`, `*`, `*/sub`, `resource/*`, resourceNames), namespaces (resource requests
// only; "" is cluster-scoped), nonResourceURLs (exact, or a prefix ending in `*`; non-resource
// requests only).
import { parseAllDocuments } from 'yaml';

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

const LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export function levelAtLeast(level: AuditLevel, min: AuditLevel): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}

interface GroupResources {
  group: string;
  resources: string[];
  resourceNames: string[];
}

interface PolicyRule {
  level: AuditLevel;
  users: string[];
  userGroups: string[];
  verbs: string[];
  resources: GroupResources[];
  namespaces: string[];
  nonResourceURLs: string[];
  omitStages: AuditStage[];
  omitManagedFields?: boolean;
}

export interface AuditPolicy {
  rules: PolicyRule[];
  omitStages: AuditStage[];
  omitManagedFields: boolean;
}

/** What a rule is matched against. */
export interface AuditAttributes {
  user: string;
  groups: readonly string[];
  verb: string;
  resourceRequest: boolean;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

export interface AuditDecision {
  level: AuditLevel;
  omitStages: ReadonlySet<AuditStage>;
  omitManagedFields: boolean;
}

export class AuditPolicyError extends Error {}

function strings(v: unknown, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new AuditPolicyError(`${path}: must be a list of strings`);
  return v as string[];
}

function stages(v: unknown, path: string): AuditStage[] {
  const out = strings(v, path);
  for (const [i, s] of out.entries()) if (!STAGES.includes(s as AuditStage)) throw new AuditPolicyError(`${path}[${i}]: Unsupported value: ${JSON.stringify(s)}: supported values: ${STAGES.map((x) => `"${x}"`).join(', ')}`);
  return out as AuditStage[];
}

/** Parses and validates a policy file's text (YAML or JSON), as kube-apiserver refuses a bad one at start. */
export function parseAuditPolicy(text: string): AuditPolicy {
  const docs = parseAllDocuments(text).filter((d) => d.contents !== null);
  if (docs.length !== 1) throw new AuditPolicyError(`the policy file must hold one document, not ${docs.length}`);
  const doc = docs[0]!;
  if (doc.errors.length > 0) throw new AuditPolicyError(doc.errors[0]!.message);
  const raw = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown> | null;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new AuditPolicyError('the policy must be an object');
  if (raw.kind !== 'Policy' || (raw.apiVersion !== 'audit.k8s.io/v1' && raw.apiVersion !== 'audit.k8s.io/v1beta1')) throw new AuditPolicyError(`expected kind Policy of audit.k8s.io/v1, got ${String(raw.kind)} of ${String(raw.apiVersion)}`);
  if (!Array.isArray(raw.rules) || raw.rules.length === 0) throw new AuditPolicyError('rules: Required value: at least one rule');
  const rules = raw.rules.map((r: unknown, i: number): PolicyRule => {
    const path = `rules[${i}]`;
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new AuditPolicyError(`${path}: must be an object`);
    const rule = r as Record<string, unknown>;
    if (!LEVELS.includes(rule.level as AuditLevel)) throw new AuditPolicyError(`${path}.level: Unsupported value: ${JSON.stringify(rule.level)}: supported values: ${LEVELS.map((x) => `"${x}"`).join(', ')}`);
    const nonResourceURLs = strings(rule.nonResourceURLs, `${path}.nonResourceURLs`);
    const resourcesRaw = rule.resources ?? [];
    if (!Array.isArray(resourcesRaw)) throw new AuditPolicyError(`${path}.resources: must be a list`);
    const resources = resourcesRaw.map((g: unknown, j: number): GroupResources => {
      const gr = (g ?? {}) as Record<string, unknown>;
      if (gr.group !== undefined && typeof gr.group !== 'string') throw new AuditPolicyError(`${path}.resources[${j}].group: must be a string`);
      const names = strings(gr.resourceNames, `${path}.resources[${j}].resourceNames`);
      const res = strings(gr.resources, `${path}.resources[${j}].resources`);
      if (names.length > 0 && res.length === 0) throw new AuditPolicyError(`${path}.resources[${j}].resourceNames: Invalid value: resource names require resources`);
      return { group: (gr.group as string | undefined) ?? '', resources: res, resourceNames: names };
    });
    const namespaces = strings(rule.namespaces, `${path}.namespaces`);
    if (nonResourceURLs.length > 0 && (resources.length > 0 || namespaces.length > 0)) throw new AuditPolicyError(`${path}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`);
    for (const [j, u] of nonResourceURLs.entries()) if (u.indexOf('*') >= 0 && u.indexOf('*') !== u.length - 1) throw new AuditPolicyError(`${path}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(u)}: non-resource URL wildcards ("*") must be the final character`);
    return {
      level: rule.level as AuditLevel,
      users: strings(rule.users, `${path}.users`),
      userGroups: strings(rule.userGroups, `${path}.userGroups`),
      verbs: strings(rule.verbs, `${path}.verbs`),
      resources,
      namespaces,
      nonResourceURLs,
      omitStages: stages(rule.omitStages, `${path}.omitStages`),
      ...(typeof rule.omitManagedFields === 'boolean' ? { omitManagedFields: rule.omitManagedFields } : {}),
    };
  });
  return { rules, omitStages: stages(raw.omitStages, 'omitStages'), omitManagedFields: raw.omitManagedFields === true };
}

function matchesResource(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.namespaces.length > 0 && !rule.namespaces.includes(a.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const combined = a.subresource !== '' ? `${a.resource}/${a.subresource}` : a.resource;
  return rule.resources.some((gr) => {
    if (gr.group !== a.apiGroup) return false;
    if (gr.resources.length === 0) return true;
    return gr.resources.some((r) => {
      const nameOk = gr.resourceNames.length === 0 || gr.resourceNames.includes(a.name);
      if (r === combined || r === '*') return nameOk;
      if (a.subresource !== '' && r === `*/${a.subresource}`) return nameOk;
      if (r === `${a.resource}/*`) return nameOk;
      return false;
    });
  });
}

function matchesNonResource(rule: PolicyRule, path: string): boolean {
  if (rule.nonResourceURLs.length === 0) return true;
  return rule.nonResourceURLs.some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
}

function matches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.users.length > 0 && !rule.users.includes(a.user)) return false;
  if (rule.userGroups.length > 0 && !rule.userGroups.some((g) => a.groups.includes(g))) return false;
  if (rule.verbs.length > 0 && !rule.verbs.includes(a.verb)) return false;
  if (a.resourceRequest) return rule.nonResourceURLs.length === 0 && matchesResource(rule, a);
  return rule.resources.length === 0 && rule.namespaces.length === 0 && matchesNonResource(rule, a.path);
}

/** The level and omitted stages for a request: the first matching rule's, else None. */
export function evaluatePolicy(policy: AuditPolicy, a: AuditAttributes): AuditDecision {
  for (const rule of policy.rules) {
    if (!matches(rule, a)) continue;
    return { level: rule.level, omitStages: new Set([...policy.omitStages, ...rule.omitStages]), omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields };
  }
  return { level: 'None', omitStages: new Set(), omitManagedFields: false };
}
