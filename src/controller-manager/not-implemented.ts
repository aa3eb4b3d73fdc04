// The controllers of seed 001 and of kube-controller-manager that kubelite does not implement yet:
// known by name (so `--controllers` accepts them, and the daemon logs them "not available"), with
// the roles Kubernetes' bootstrap policy keeps for them. A controller moves from here to its own
// folder's descriptor when it is written.
import type { ControllerDescriptor } from '../controllers/index.js';

export type NotImplementedController = Omit<ControllerDescriptor, 'ctor'>;

const on = (name: string, alias?: string, workersOption?: string): NotImplementedController => ({ name, aliases: alias === undefined ? [] : [alias], enabledByDefault: true, workersOption });

// prettier-ignore
export const NOT_IMPLEMENTED_CONTROLLERS: readonly NotImplementedController[] = [
  on('legacy-serviceaccount-token-cleaner', 'legacy-serviceaccount-token-cleaner-controller'),
];
