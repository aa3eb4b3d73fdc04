// Which names a CRD may be served under, as Kubernetes' naming controller decides: each requested
// name is taken unless another CRD of the group has accepted it; conflicts keep the names accepted
// before and say why in the NamesAccepted condition. Established follows: False until the names are
// accepted, then (once the resource is served) True.
import type { CRDCondition, CRDNames, CustomResourceDefinition } from '../../registry/custom/index.js';

export interface NamesDecision {
  names: CRDNames;
  namesAccepted: CRDCondition;
}

/** The names claimed by the CRDs of a group (their accepted names), `self` included. */
function claimedNames(group: readonly CustomResourceDefinition[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of group) {
    const a = crd.status?.acceptedNames;
    if (!a) continue;
    resources.add(a.plural ?? '');
    resources.add(a.singular ?? '');
    for (const s of a.shortNames ?? []) resources.add(s);
    kinds.add(a.kind ?? '');
    kinds.add(a.listKind ?? '');
  }
  return { resources, kinds };
}

/** Kubernetes' equalToAcceptedOrFresh: the name is ours already, or nobody's. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** The names `crd` is served under and its NamesAccepted condition, given its group's CRDs (itself included). */
export function decideNames(crd: CustomResourceDefinition, group: readonly CustomResourceDefinition[]): NamesDecision {
  const { resources, kinds } = claimedNames(group);
  const requested = crd.spec.names;
  const accepted: Partial<CRDNames> = crd.status?.acceptedNames ?? {};
  const names: CRDNames = { plural: accepted.plural ?? '', kind: accepted.kind ?? '' };
  if (accepted.singular !== undefined) names.singular = accepted.singular;
  if (accepted.shortNames !== undefined) names.shortNames = accepted.shortNames;
  if (accepted.listKind !== undefined) names.listKind = accepted.listKind;
  let refused: { reason: string; message: string } | undefined;
  const check = (requestedName: string, acceptedName: string, used: Set<string>, reason: string): boolean => {
    const why = conflict(requestedName, acceptedName, used);
    if (why) refused = { reason, message: why };
    return why === undefined;
  };
  if (check(requested.plural, accepted.plural ?? '', resources, 'PluralConflict')) names.plural = requested.plural;
  if (check(requested.singular ?? '', accepted.singular ?? '', resources, 'SingularConflict')) names.singular = requested.singular ?? '';
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errors = (requested.shortNames ?? []).filter((s) => !mine.has(s)).map((s) => conflict(s, '', resources)).filter((e): e is string => e !== undefined);
    if (errors.length > 0) refused = { reason: 'ShortNamesConflict', message: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    else names.shortNames = requested.shortNames;
  }
  if (check(requested.kind, accepted.kind ?? '', kinds, 'KindConflict')) names.kind = requested.kind;
  if (check(requested.listKind ?? '', accepted.listKind ?? '', kinds, 'ListKindConflict')) names.listKind = requested.listKind ?? '';
  names.categories = requested.categories;
  if (names.categories === undefined) delete names.categories;
  const namesAccepted: CRDCondition = refused
    ? { type: 'NamesAccepted', status: 'False', reason: refused.reason, message: refused.message }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  return { names, namesAccepted };
}
