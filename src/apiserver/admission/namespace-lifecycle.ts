// NamespaceLifecycle (Kubernetes' plugin/namespace/lifecycle): nothing is created or updated in a
// namespace that does not exist (404), nothing new is created in one being terminated (403 with a
// NamespaceTerminating cause, which controllers recognise), and the immortal namespaces (default,
// kube-system, kube-public) may not be deleted. Deletes of other objects are always allowed.
import { apiError } from '../../registry/errors.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);
/** Access reviews must not reveal whether a namespace exists. */
const ACCESS_REVIEWS = new Set(['authorization.k8s.io/localsubjectaccessreviews']);

export interface NamespacePhases {
  /** undefined: no such namespace; otherwise its phase (Active, Terminating). */
  namespacePhase(namespace: string): Promise<string | undefined>;
}

export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  constructor(private readonly namespaces: NamespacePhases) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    // Cluster-scoped objects and namespaces themselves are always allowed (deletes: see validate).
    if (a.namespace === '' || (a.group === '' && a.resource === 'namespaces')) return;
    // Deletes are always allowed, also of what is left in a namespace already gone.
    if (a.operation === 'DELETE') return;
    if (ACCESS_REVIEWS.has(`${a.group}/${a.resource}`)) return;
    const phase = await this.namespaces.namespacePhase(a.namespace);
    if (phase === undefined) throw apiError.notFound({ group: '', resource: 'namespaces' }, a.namespace);
    if (a.operation === 'CREATE' && phase === 'Terminating') {
      throw admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`, [
        { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' },
      ]);
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.operation === 'DELETE' && a.group === '' && a.resource === 'namespaces' && IMMORTAL_NAMESPACES.has(a.name)) {
      throw admissionForbidden(a, 'this namespace may not be deleted');
    }
  }
}
