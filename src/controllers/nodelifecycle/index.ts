// The node lifecycle controller's descriptor (see ../README.md). Seed 001's `node` (the older name
// of the controller that watched nodes) is accepted for it.
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { NodeLifecycleController } from './controller.js';

export const nodeLifecycleDescriptor: ControllerDescriptor = {
  name: 'nodelifecycle',
  aliases: ['node-lifecycle-controller', 'node'],
  enabledByDefault: true,
  workers: 8,
  serviceAccount: 'node-controller',
  // Its role is also the one `kubelite up` gives the simulated nodes' process (src/up/credentials.ts).
  rules: [
    rule(CORE, 'nodes', 'delete get list patch update watch'),
    rule(CORE, 'nodes/status', 'patch update'),
    rule(CORE, 'pods/status', 'patch update'),
    rule(CORE, 'pods', 'delete get list watch'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new NodeLifecycleController(ctx),
};
