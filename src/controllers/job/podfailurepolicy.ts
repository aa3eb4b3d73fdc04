// spec.podFailurePolicy (pkg/controller/job/pod_failure_policy.go): the first rule matching a
// failed pod's container exit codes or pod conditions decides whether the Job fails at once
// (FailJob), the failure is not counted towards backoffLimit (Ignore) or counted (Count).
import { nameOf, namespaceOf } from '../../api/meta/object.js';
import type { ContainerStatus, Job, Pod, PodFailurePolicyOnExitCodesRequirement } from '../../api/types.js';
import { isPodFailed } from './pods.js';
import { jobSpec } from './spec.js';

export interface PolicyMatch {
  /** FailJob's message. */
  failJobMessage?: string;
  /** Whether the failure counts towards backoffLimit. */
  countFailed: boolean;
  action?: string;
}

function matchingContainer(statuses: ContainerStatus[], req: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  for (const cs of statuses) {
    const t = cs.state?.terminated;
    if (!t) continue;
    if (req.containerName !== undefined && req.containerName !== cs.name) continue;
    const code = t.exitCode ?? 0;
    if (code === 0) continue;
    const inValues = (req.values ?? []).includes(code);
    if ((req.operator === 'In' && inValues) || (req.operator === 'NotIn' && !inValues)) return cs;
  }
  return undefined;
}

/** matchPodFailurePolicy. */
export function matchPodFailurePolicy(job: Job, pod: Pod): PolicyMatch {
  const policy = jobSpec(job).podFailurePolicy;
  if (!policy) return { countFailed: true };
  const st = pod.status ?? {};
  const podKey = `${namespaceOf(pod)}/${nameOf(pod)}`;
  const rules = policy.rules ?? [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    let failMsg: string | undefined;
    if (rule.onExitCodes) {
      const cs = matchingContainer(st.containerStatuses ?? [], rule.onExitCodes) ?? matchingContainer(st.initContainerStatuses ?? [], rule.onExitCodes);
      if (!cs) continue;
      failMsg = `Container ${cs.name} for pod ${podKey} failed with exit code ${cs.state!.terminated!.exitCode} matching FailJob rule at index ${i}`;
    } else if (rule.onPodConditions) {
      const patterns = rule.onPodConditions;
      const cond = (st.conditions ?? []).find((c) => patterns.some((p) => p.type === c.type && (p.status ?? 'True') === c.status));
      if (!cond) continue;
      failMsg = `Pod ${podKey} has condition ${cond.type} matching FailJob rule at index ${i}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore':
        return { countFailed: false, action: 'Ignore' };
      case 'Count':
        return { countFailed: true, action: 'Count' };
      case 'FailJob':
        return { failJobMessage: failMsg, countFailed: true, action: 'FailJob' };
      case 'FailIndex':
        // Only meaningful with backoffLimitPerIndex (validation requires it).
        if (typeof jobSpec(job).backoffLimitPerIndex === 'number') return { countFailed: true, action: 'FailIndex' };
    }
  }
  return { countFailed: true };
}

/** getFailJobMessage: the FailJob message of the first failed pod a FailJob rule matches. */
export function failJobMessage(job: Job, pods: Pod[]): string | undefined {
  if (!jobSpec(job).podFailurePolicy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const r = matchPodFailurePolicy(job, p);
    if (r.failJobMessage !== undefined) return r.failJobMessage;
  }
  return undefined;
}
