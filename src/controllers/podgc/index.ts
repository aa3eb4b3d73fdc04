// The pod garbage collector's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, READ, rule } from '../common/rbac.js';
import { PodGCController } from './controller.js';

export const podGCDescriptor: ControllerDescriptor = {
  name: 'podgc',
  aliases: ['pod-garbage-collector-controller'],
  enabledByDefault: true,
  serviceAccount: 'pod-garbage-collector',
  rules: [rule(CORE, 'pods', 'delete list watch'), rule(CORE, 'nodes', READ), rule(CORE, 'pods/status', 'patch')],
  ctor: (ctx) => new PodGCController(ctx),
};
