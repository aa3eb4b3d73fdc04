// The taint eviction controller's descriptor (see ../README.md): on with --enable-taint-manager
// (the default), which the controller manager reads when it resolves the controllers to run.
import type { ControllerDescriptor } from '../common/descriptor.js';
import { TaintEvictionController } from './controller.js';

export const taintEvictionDescriptor: ControllerDescriptor = {
  name: 'taint-eviction',
  aliases: ['taint-eviction-controller'],
  enabledByDefault: true,
  workers: 1,
  // Kubernetes runs it as the node controller's service account
  serviceAccount: 'node-controller',
  ctor: (ctx) => new TaintEvictionController(ctx),
};
