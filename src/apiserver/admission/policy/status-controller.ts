// The ValidatingAdmissionPolicy status controller (Kubernetes runs it in kube-controller-manager:
// pkg/controller/validatingadmissionpolicystatus), run inside the API server: kubelite's type
// checker needs the kinds' schemas, which the server holds, and `kubelite apiserver` alone then
// reports what Kubernetes reports. Every policy whose generation is past status.observedGeneration
// gets, through policies/status under the controller's field manager, observedGeneration = its
// generation and typeChecking with the type checker's warnings (conditions are left as they are).
import type { CachedObject } from '../../../storage/cacher/types.js';
import { decodeCached } from '../../../registry/decode-cached.js';
import type { Registry } from '../../../registry/registry.js';
import { UNCHANGED } from '../../../registry/store.js';
import { StatusError } from '../../../machinery/status.js';
import type { ValidatingAdmissionPolicy } from '../../../api/types.js';
import { followCache, type CacheFollow } from '../../auth/follow-cache.js';
import type { ExpressionWarning } from './type-checking.js';

const GROUP = 'admissionregistration.k8s.io';
const RESOURCE = 'validatingadmissionpolicies';
export const STATUS_CONTROLLER_NAME = 'validatingadmissionpolicy-status-controller';
const RETRY_MS = 1000;

/** The warnings of a policy's expressions. */
export interface PolicyWarnings {
  warnings(policy: ValidatingAdmissionPolicy): ExpressionWarning[];
}

const generationOf = (p: ValidatingAdmissionPolicy) => Number(p.metadata?.generation ?? 0);
const observedOf = (p: ValidatingAdmissionPolicy) => Number(p.status?.observedGeneration ?? 0);

/** The status Kubernetes' controller applies: observedGeneration and typeChecking (warnings only when there are some). */
export function typeCheckedStatus(policy: ValidatingAdmissionPolicy, checker: PolicyWarnings): NonNullable<ValidatingAdmissionPolicy['status']> {
  const warnings = checker.warnings(policy);
  return { ...policy.status, observedGeneration: generationOf(policy), typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} };
}

export class PolicyStatusController {
  private follow: CacheFollow | undefined;
  private readonly queue = new Set<string>();
  private running = false;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly registry: Registry,
    private readonly checker: PolicyWarnings,
    private readonly log: (fields: Record<string, unknown>) => void = () => {},
  ) {}

  start(): void {
    if (!this.registry.store(GROUP, RESOURCE)) return;
    this.follow = followCache(this.registry, GROUP, RESOURCE, {
      begin: () => {},
      synced: () => {},
      event: (type, object: CachedObject) => {
        if (type === 'DELETED') return;
        const policy = decodeCached(object) as ValidatingAdmissionPolicy;
        if (generationOf(policy) > observedOf(policy)) this.enqueue(policy.metadata?.name ?? '');
      },
    });
  }

  stop(): void {
    this.stopped = true;
    this.follow?.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private enqueue(name: string): void {
    if (this.stopped || name === '') return;
    this.queue.add(name);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      for (const name of this.queue) {
        this.queue.delete(name);
        try {
          await this.reconcile(name);
        } catch (err) {
          if (this.stopped) return;
          this.log({ msg: 'validatingadmissionpolicy status', policy: name, error: (err as Error).message });
          const t = setTimeout(() => {
            this.timers.delete(t);
            this.enqueue(name);
          }, RETRY_MS);
          this.timers.add(t);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Writes the status of one policy if its generation is past what the status observed. */
  async reconcile(name: string): Promise<void> {
    const store = this.registry.store(GROUP, RESOURCE)!;
    try {
      await store.guaranteedUpdate(
        '',
        name,
        (cur) => {
          const policy = cur as ValidatingAdmissionPolicy;
          if (generationOf(policy) <= observedOf(policy)) return UNCHANGED;
          return { ...cur, status: typeCheckedStatus(policy, this.checker) };
        },
        { subresource: 'status', fieldManager: { manager: STATUS_CONTROLLER_NAME, apiVersion: `${GROUP}/v1`, subresource: 'status' } },
      );
    } catch (err) {
      // Deleted meanwhile: nothing to report.
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
  }
}
