// The node IPAM controller's descriptor (see ../README.md). Kubernetes runs it as the node
// controller's service account.
import type { ControllerDescriptor } from '../common/descriptor.js';
import { NodeIpamController } from './controller.js';

export const nodeIpamDescriptor: ControllerDescriptor = {
  name: 'nodeipam',
  aliases: ['node-ipam-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'node-controller',
  ctor: (ctx) => new NodeIpamController(ctx),
};
