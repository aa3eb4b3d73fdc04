// Whether a policy's matchConstraints (or a binding's matchResources) cover a request, as
// k8s.io/apiserver's policy matching decides it: namespaceSelector, objectSelector,
// excludeResourceRules, resourceRules (none: every resource), and matchPolicy Equivalent — a
// request for deployments in apps/v1 also matches a rule naming extensions/v1beta1 deployments,
// the same objects served in another version. Selector errors (a namespace that cannot be read)
// only count when the rules match, as in Kubernetes.
import { allKinds, storageVersionOf } from '../../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import { metadataOf } from '../../../api/meta/object.js';
import { labelSelectorAsSelector, type LabelSelector, type LabelSelectorObject, type Labels } from '../../../machinery/selectors/labels.js';
import type { AdmissionAttributes } from '../types.js';
import { requestName } from './request.js';
import { namedRuleMatches, type NamedRuleWithOperations, type RuleRequest } from './rules.js';

export interface MatchResources {
  namespaceSelector?: LabelSelectorObject | null;
  objectSelector?: LabelSelectorObject | null;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: string;
}

/** The resource (and its kind) a policy matched the request as: the request's own, or an equivalent's. */
export interface MatchedAs {
  kind: KindVersion;
}

export type MatchResult = { matches: false; error?: Error; as?: undefined } | { matches: true; as: MatchedAs; error?: undefined };

export interface MatchContext {
  /** The labels of a namespace (throws a 404 StatusError when there is none). */
  namespaceLabels(name: string): Promise<Labels>;
  /** The kinds serving the same objects as `kind` in other versions or groups (matchPolicy Equivalent). */
  equivalents?(kind: KindVersion): readonly KindVersion[];
}

/** Built-in kinds sharing `kind`'s storage (CRD versions are added by the integrator's lookup). */
export function builtinEquivalents(kind: KindVersion): readonly KindVersion[] {
  let hub: KindVersion;
  try {
    hub = storageVersionOf(kind);
  } catch {
    return [];
  }
  return allKinds.filter((k) => k !== kind && k.resource === kind.resource && !k.computed && !k.createOnly && storageVersionOf(k) === hub);
}

const ruleRequest = (a: AdmissionAttributes, kind: KindVersion): RuleRequest => ({
  operation: a.operation,
  group: kind.group,
  version: kind.version,
  resource: kind.resource,
  subresource: a.subresource,
  namespace: a.namespace,
});

const labelsOf = (o: KubeObject): Labels => metadataOf(o).labels;

const selectorCache = new WeakMap<LabelSelectorObject, LabelSelector>();
/** metav1.LabelSelectorAsSelector, once per selector object: absent matches nothing, empty everything. */
function selectorOf(s: LabelSelectorObject | null | undefined): LabelSelector {
  if (s === null || s === undefined) return labelSelectorAsSelector(s);
  let sel = selectorCache.get(s);
  if (!sel) selectorCache.set(s, (sel = labelSelectorAsSelector(s)));
  return sel;
}

async function matchNamespace(criteria: MatchResources, a: AdmissionAttributes, ctx: MatchContext): Promise<{ ok: boolean; error?: Error }> {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  if (a.namespace === '' && !isNamespace) return { ok: true };
  try {
    const selector = selectorOf(criteria.namespaceSelector);
    if (selector.isEmpty()) return { ok: true };
    // A Namespace being created or updated is matched on its own (new) labels.
    const labels = isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE') ? labelsOf(a.object as KubeObject) : await ctx.namespaceLabels(a.namespace);
    return { ok: selector.matches(labels) };
  } catch (err) {
    return { ok: false, error: err as Error };
  }
}

function matchObject(criteria: MatchResources, a: AdmissionAttributes): { ok: boolean; error?: Error } {
  try {
    const selector = selectorOf(criteria.objectSelector);
    if (selector.isEmpty()) return { ok: true };
    return { ok: [a.object, a.oldObject].some((o) => o !== undefined && selector.matches(labelsOf(o))) };
  } catch (err) {
    return { ok: false, error: err as Error };
  }
}

/** The first rule matching the request, in its own version, then (Equivalent) in an equivalent one. */
function matchRules(rules: readonly NamedRuleWithOperations[], matchPolicy: string | undefined, a: AdmissionAttributes, ctx: MatchContext): MatchedAs | undefined {
  const name = requestName(a);
  // The request's own version first (Kubernetes matches the version the client used), then its equivalents.
  const own = a.requestKind ?? a.kind;
  if (rules.some((rule) => namedRuleMatches(rule, ruleRequest(a, own), name))) return { kind: own };
  if (matchPolicy === undefined || matchPolicy === 'Exact') return undefined;
  const equivalents = (ctx.equivalents ?? builtinEquivalents)(own);
  for (const rule of rules) {
    for (const kind of equivalents) if (namedRuleMatches(rule, ruleRequest(a, kind), name)) return { kind };
  }
  return undefined;
}

export async function matches(criteria: MatchResources, a: AdmissionAttributes, ctx: MatchContext): Promise<MatchResult> {
  const ns = await matchNamespace(criteria, a, ctx);
  if (!ns.ok && !ns.error) return { matches: false };
  const obj = matchObject(criteria, a);
  if (!obj.ok && !obj.error) return { matches: false };
  if (matchRules(criteria.excludeResourceRules ?? [], criteria.matchPolicy, a, ctx)) return { matches: false };
  const rules = criteria.resourceRules ?? [];
  const as = rules.length === 0 ? { kind: a.requestKind ?? a.kind } : matchRules(rules, criteria.matchPolicy, a, ctx);
  if (!as) return { matches: false };
  if (ns.error) return { matches: false, error: ns.error };
  if (obj.error) return { matches: false, error: obj.error };
  return { matches: true, as };
}
