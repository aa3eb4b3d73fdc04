// The root CA certificate publisher's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { newRootCACertPublisher } from './controller.js';

export const rootCACertPublisherDescriptor: ControllerDescriptor = {
  name: 'root-ca-cert-publisher',
  aliases: ['root-ca-certificate-publisher-controller'],
  enabledByDefault: true,
  serviceAccount: 'root-ca-cert-publisher',
  rules: [rule(CORE, 'configmaps', 'create update'), EVENTS_RULE],
  ctor: newRootCACertPublisher,
};
