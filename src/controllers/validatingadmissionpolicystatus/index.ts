// The ValidatingAdmissionPolicy status controller's descriptor (see ../README.md). Its role is
// Kubernetes' bootstrap policy's system:controller:validatingadmissionpolicy-status-controller.
import type { ControllerDescriptor } from '../common/descriptor.js';
import { EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { CONTROLLER_NAME, ValidatingAdmissionPolicyStatusController } from './controller.js';

const GROUP = ['admissionregistration.k8s.io'];

export const validatingAdmissionPolicyStatusDescriptor: ControllerDescriptor = {
  name: CONTROLLER_NAME,
  aliases: [],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: CONTROLLER_NAME,
  rules: [rule(GROUP, 'validatingadmissionpolicies', READ), rule(GROUP, 'validatingadmissionpolicies/status', 'get patch update'), EVENTS_RULE],
  ctor: (ctx) => new ValidatingAdmissionPolicyStatusController(ctx),
};
