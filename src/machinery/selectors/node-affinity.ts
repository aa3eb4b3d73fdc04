// Node selection rules shared by everything that places pods (the scheduler, the DaemonSet
// controller): taints against tolerations, and node selector terms (matchExpressions on the node's
// labels AND matchFields on metadata.name; terms are ORed; an empty term matches nothing), as
// Kubernetes' v1helper and nodeaffinity packages define them.

import type { NodeSelectorRequirement, NodeSelectorTerm, Taint as ApiTaint, Toleration } from '../../api/types.js';

// Tolerations and node selector terms are read as the schema types them (fields may be null in
// JSON), so pods' specs reach these matchers as they are.
export type { NodeSelectorRequirement, NodeSelectorTerm, Toleration };

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

/** Toleration.ToleratesTaint: an empty effect or key matches any; operator Exists ignores the value. */
export function toleratesTaint(t: Toleration, taint: Taint | ApiTaint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  const op = t.operator || 'Equal';
  if (op === 'Exists') return true;
  return op === 'Equal' && (t.value ?? '') === (taint.value ?? '');
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0]!)) return false;
      return r.operator === 'Gt' ? BigInt(value) > BigInt(values[0]!) : BigInt(value) < BigInt(values[0]!);
    }
    default:
      return false;
  }
}

/** Whether a node (its labels and name) matches. */
export type NodeMatcher = (labels: Readonly<Record<string, string>>, name: string) => boolean;

export function compileNodeSelectorTerm(term: NodeSelectorTerm): NodeMatcher {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return () => false;
  return (labels, name) => {
    for (const e of exprs) if (!requirementMatches(e, Object.prototype.hasOwnProperty.call(labels, e.key ?? '') ? labels[e.key ?? ''] : undefined)) return false;
    for (const f of fields) {
      // metadata.name is the only field a node selector may name.
      if (f.key !== 'metadata.name' || !requirementMatches(f, name)) return false;
    }
    return true;
  };
}

/** Any of the terms (nodeSelectorTerms are ORed); no terms match nothing. */
export function compileNodeSelectorTerms(terms: NodeSelectorTerm[] | null | undefined): NodeMatcher {
  const ms = (terms ?? []).map(compileNodeSelectorTerm);
  return (labels, name) => ms.some((m) => m(labels, name));
}
