// The daemonset controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, PODS_WRITE_RULE, READ, rule } from '../common/rbac.js';
import { DaemonSetController } from './controller.js';

export const daemonSetDescriptor: ControllerDescriptor = {
  name: 'daemonset',
  aliases: ['daemonset-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentDaemonsetSyncs',
  serviceAccount: 'daemon-set-controller',
  rules: [
    rule(['apps', 'extensions'], 'daemonsets', READ),
    rule(['apps', 'extensions'], 'daemonsets/status', 'update'),
    rule(['apps', 'extensions'], 'daemonsets/finalizers', 'update'),
    rule(CORE, 'nodes', 'list watch'),
    PODS_WRITE_RULE,
    rule(CORE, 'pods/binding', 'create'),
    rule(['apps'], 'controllerrevisions', 'create delete get list patch update watch'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new DaemonSetController(ctx),
};
