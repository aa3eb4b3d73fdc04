// The namespace controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, rule } from '../common/rbac.js';
import { NamespaceController } from './controller.js';

export const namespaceDescriptor: ControllerDescriptor = {
  name: 'namespace',
  aliases: ['namespace-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentNamespaceSyncs',
  serviceAccount: 'namespace-controller',
  rules: [
    rule(CORE, 'namespaces', 'delete get list watch'),
    rule(CORE, 'namespaces/finalize namespaces/status', 'update'),
    rule(['*'], '*', 'delete deletecollection get list watch'),
  ],
  ctor: (ctx) => new NamespaceController(ctx),
};
