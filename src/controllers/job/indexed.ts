// Indexed completion mode (pkg/controller/job/indexed_job_utils.go): each pod carries a completion
// index in [0, completions) (annotation, label, hostname <job>-<index>, env JOB_COMPLETION_INDEX);
// the Job succeeds once every index has a succeeded pod; status.completedIndexes lists them as
// intervals ("0-2,4,6,7").
import { annotationsOf } from '../../api/meta/object.js';
import type { Pod, PodTemplateSpec, SuccessPolicy } from '../../api/types.js';
import { comparePodsForDeletion } from '../common/pods.js';

export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_LABEL = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** getCompletionIndex: the pod's index, or -1 when missing or invalid. */
export function completionIndexOf(pod: Pod): number {
  const v = annotationsOf(pod)[COMPLETION_INDEX_ANNOTATION];
  if (v === undefined || !/^\d+$/.test(v)) return -1;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : -1;
}

/** parseIndexesFromString: the indexes below `completions` of a completedIndexes string. */
export function parseIndexes(s: string | null | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  if (!s) return out;
  for (const part of s.split(',')) {
    const [a, b] = part.split('-');
    const first = Number(a);
    const last = b === undefined ? first : Number(b);
    if (!Number.isInteger(first) || !Number.isInteger(last)) continue;
    for (let i = first; i <= last && i < completions; i++) out.add(i);
  }
  return out;
}

/** orderedIntervals.String: "1,3-5,7" (two consecutive indexes are written "1,2"). */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const first = sorted[i]!;
    const last = sorted[j]!;
    if (last === first) parts.push(String(first));
    else if (last === first + 1) parts.push(`${first},${last}`);
    else parts.push(`${first}-${last}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** firstPendingIndexes: the lowest `count` indexes neither succeeded nor held by an active pod. */
export function firstPendingIndexes(activePods: Pod[], succeeded: Set<number>, count: number, completions: number): number[] {
  const taken = new Set(activePods.map(completionIndexOf));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!succeeded.has(i) && !taken.has(i)) out.push(i);
  return out;
}

/**
 * appendDuplicatedIndexPodsForRemoval: active pods with an invalid or out-of-range index, and all
 * but the most valuable pod of each index; returns [toRemove, remaining].
 */
export function duplicatedIndexPodsForRemoval(pods: Pod[], completions: number): [Pod[], Pod[]] {
  const rm: Pod[] = [];
  const left: Pod[] = [];
  const byIndex = new Map<number, Pod[]>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (ix < 0 || ix >= completions) rm.push(p);
    else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
  }
  for (const group of byIndex.values()) {
    group.sort((a, b) => comparePodsForDeletion(a, b));
    rm.push(...group.slice(0, -1));
    left.push(group[group.length - 1]!);
  }
  return [rm, left];
}

/** The pod template of one index: annotation, label, hostname and the env var in every container. */
export function indexedTemplate(template: PodTemplateSpec, jobName: string, index: number): void {
  const m = (template.metadata ??= {});
  m.annotations = { ...(m.annotations ?? {}), [COMPLETION_INDEX_ANNOTATION]: String(index) };
  m.labels = { ...(m.labels ?? {}), [COMPLETION_INDEX_LABEL]: String(index) };
  const spec = (template.spec ??= {});
  spec.hostname = `${jobName}-${index}`;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if ((c.env ?? []).some((e) => e.name === COMPLETION_INDEX_ENV)) continue;
    c.env = [...(c.env ?? []), { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } } }];
  }
}

/**
 * matchSuccessPolicy (Indexed jobs): the first rule whose succeededIndexes all succeeded (or at
 * least succeededCount of them, or succeededCount indexes at all without a list) declares the Job
 * successful; returns Kubernetes' message, or undefined.
 */
export function matchSuccessPolicy(policy: SuccessPolicy | undefined | null, completions: number, succeeded: Set<number>): string | undefined {
  if (!policy || succeeded.size === 0) return undefined;
  const rules = policy.rules ?? [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.size === 0) continue;
      let contains = 0;
      for (const ix of required) if (succeeded.has(ix)) contains++;
      if (contains === required.size || (typeof rule.succeededCount === 'number' && contains >= rule.succeededCount)) return `Matched rules at index ${i}`;
    } else if (typeof rule.succeededCount === 'number' && succeeded.size >= rule.succeededCount) {
      return `Matched rules at index ${i}`;
    }
  }
  return undefined;
}

// ---- backoffLimitPerIndex ----

export const INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

function countAnnotation(pod: Pod, key: string): number {
  const v = annotationsOf(pod)[key];
  if (v === undefined || !/^\d+$/.test(v)) return 0;
  return Number(v);
}

/** getIndexFailureCount: the failures of the pod's index before this pod. */
export const indexFailureCount = (pod: Pod): number => countAnnotation(pod, INDEX_FAILURE_COUNT_ANNOTATION);
/** getIndexAbsoluteFailureCount: counted and ignored failures before this pod. */
export const indexAbsoluteFailureCount = (pod: Pod): number => indexFailureCount(pod) + countAnnotation(pod, INDEX_IGNORED_FAILURE_COUNT_ANNOTATION);
