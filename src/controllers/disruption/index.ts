// The disruption controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { DisruptionController } from './controller.js';

export const disruptionDescriptor: ControllerDescriptor = {
  name: 'disruption',
  aliases: ['disruption-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'disruption-controller',
  rules: [
    rule(['extensions', 'apps'], 'deployments', READ),
    rule(['apps', 'extensions'], 'replicasets', READ),
    rule(CORE, 'replicationcontrollers', READ),
    rule(['policy'], 'poddisruptionbudgets', READ),
    rule(['apps'], 'statefulsets', READ),
    rule(['policy'], 'poddisruptionbudgets/status', 'update'),
    rule(CORE, 'pods/status', 'patch update'),
    rule(['*'], '*/scale', 'get'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new DisruptionController(ctx),
};
