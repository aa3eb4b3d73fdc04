// The garbage collector's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { EVENTS_RULE, rule } from '../common/rbac.js';
import { GarbageCollectorController } from './controller.js';

export const garbageCollectorDescriptor: ControllerDescriptor = {
  name: 'garbagecollector',
  aliases: ['garbage-collector-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentGcSyncs',
  serviceAccount: 'generic-garbage-collector',
  rules: [rule(['*'], '*', 'delete get list patch update watch'), EVENTS_RULE],
  ctor: (ctx) => new GarbageCollectorController(ctx),
};
