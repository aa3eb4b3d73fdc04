// What the controller manager needs to know about a controller, declared once in the controller's
// own folder (`controllers/<name>/index.ts`): the controller manager's table, the clients of
// --use-service-account-credentials and the API server's bootstrap roles are derived from it.
import type { PolicyRule } from '../../api/types.js';
import type { ControllerConstructor } from '../../client/types.js';

export interface ControllerDescriptor {
  /** The name `--controllers` knows it by (kube-controller-manager's). */
  readonly name: string;
  /** Other names `--controllers` accepts (Kubernetes ≥ 1.28 calls it `deployment-controller`). */
  readonly aliases: readonly string[];
  /** Whether `*` in `--controllers` turns it on. */
  readonly enabledByDefault: boolean;
  /** The option holding its worker count (the camelCase key: `concurrentDeploymentSyncs`). */
  readonly workersOption?: string;
  /** Its worker count when no option holds one (default 1). */
  readonly workers?: number;
  /**
   * The service account in kube-system it acts as under --use-service-account-credentials;
   * absent, it uses the daemon's own credentials.
   */
  readonly serviceAccount?: string;
  /** The rules of its ClusterRole `system:controller:<serviceAccount>` (bootstrap policy). */
  readonly rules?: readonly PolicyRule[];
  /** Builds the controller (named `ctor`: every object literal already has a `constructor`). */
  readonly ctor: ControllerConstructor;
}
