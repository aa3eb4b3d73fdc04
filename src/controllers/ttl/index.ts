// The TTL controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { TTLController } from './controller.js';

export const ttlDescriptor: ControllerDescriptor = {
  name: 'ttl',
  aliases: ['ttl-controller'],
  enabledByDefault: true,
  workers: 5,
  serviceAccount: 'ttl-controller',
  rules: [rule(CORE, 'nodes', 'list patch update watch'), EVENTS_RULE],
  ctor: (ctx) => new TTLController(ctx),
};
