// Kubernetes' ValidatingAdmissionPolicy status controller
// (pkg/controller/validatingadmissionpolicystatus): every policy whose generation is past
// status.observedGeneration gets, by a server-side apply of its status under the controller's
// field manager (forced), observedGeneration = its generation and typeChecking with the type
// checker's warnings (none: `typeChecking: {}`). Conditions are not its to write.
import { keyOf } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister, ResourceRef, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import type { ValidatingAdmissionPolicy } from '../../api/types.js';
import { PolicyTypeChecker, type ExpressionWarning } from '../../machinery/admissionpolicy/type-checking.js';

export const CONTROLLER_NAME = 'validatingadmissionpolicy-status-controller';
const POLICIES: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };

/** The warnings of a policy's expressions. */
export interface PolicyWarnings {
  warnings(policy: ValidatingAdmissionPolicy): ExpressionWarning[];
}

const generationOf = (p: ValidatingAdmissionPolicy) => Number(p.metadata?.generation ?? 0);
const observedOf = (p: ValidatingAdmissionPolicy) => Number(p.status?.observedGeneration ?? 0);

export class ValidatingAdmissionPolicyStatusController implements Controller {
  readonly name = CONTROLLER_NAME;
  readonly queue: WorkQueue<string>;
  private readonly lister: Lister;
  private readonly checker: PolicyWarnings;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { checker?: PolicyWarnings; newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.checker = opts.checker ?? new PolicyTypeChecker();
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'validatingadmissionpolicy-status' })))();
    const inf = ctx.informers.informer(POLICIES);
    this.lister = inf.lister;
    inf.addEventHandler({
      onAdd: (p) => this.queue.add(keyOf(p)),
      onUpdate: (_o, p) => this.queue.add(keyOf(p)),
    });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    // Kubernetes retries a policy rate limited for as long as it fails.
    await runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) => this.ctx.log({ controller: this.name, msg: 'syncing policy status failed', policy: key, err: String(err) }), Infinity);
  }

  /** Kubernetes' reconcile. */
  async sync(key: string): Promise<void> {
    const policy = this.lister.get('', key) as ValidatingAdmissionPolicy | undefined;
    if (!policy || generationOf(policy) <= observedOf(policy)) return;
    const warnings = this.checker.warnings(policy);
    const status = { observedGeneration: generationOf(policy), typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} };
    try {
      await this.ctx.clientset
        .resource(POLICIES)
        .patch('', key, 'apply', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: key }, status }, { subresource: 'status', fieldManager: CONTROLLER_NAME, force: true });
    } catch (e) {
      // Deleted meanwhile: nothing to report.
      if (isNotFound(e)) return;
      throw e;
    }
  }
}
