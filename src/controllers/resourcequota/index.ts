// The resourcequota controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { ResourceQuotaController } from './controller.js';

export const resourceQuotaDescriptor: ControllerDescriptor = {
  name: 'resourcequota',
  aliases: ['resourcequota-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentResourceQuotaSyncs',
  serviceAccount: 'resourcequota-controller',
  // Kubernetes' system:controller:resourcequota-controller: read everything it counts, write quota status.
  rules: [rule(['*'], '*', 'list watch'), rule(CORE, 'resourcequotas/status', 'update'), EVENTS_RULE],
  ctor: (ctx) => new ResourceQuotaController(ctx),
};
