// core/v1 Event: the legacy validation Kubernetes applies to events written through core/v1 (no
// ObjectMeta validation; involvedObject namespace agreement; the events.k8s.io-style required
// fields when eventTime is set). No status, no generation; PUT may create.
import { byteLength, isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/names.js';
import { obj, str, type Obj } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import type { ResourceStrategy } from '../strategy.js';

const ReportingInstanceLengthLimit = 128;
const ActionLengthLimit = 128;
const ReasonLengthLimit = 128;
const NoteLengthLimit = 1024;

/** legacyValidateEvent for requests in core/v1. */
export function validateEventV1(event: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = str(obj(event.metadata).namespace);
  const involvedNamespace = str(obj(event.involvedObject).namespace);
  const eventTime = event.eventTime;
  if (eventTime === undefined || eventTime === null || eventTime === '') {
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errs.push(fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    } else if (namespace !== involvedNamespace) {
      errs.push(fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    }
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') {
      errs.push(fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
    }
    const controller = str(event.reportingComponent);
    if (controller === '') errs.push(fieldError.required('reportingComponent'));
    errs.push(...isQualifiedName(controller).map((msg) => fieldError.invalid('reportingComponent', controller, msg)));
    const instance = str(event.reportingInstance);
    if (instance === '') errs.push(fieldError.required('reportingInstance'));
    if (byteLength(instance) > ReportingInstanceLengthLimit) errs.push(fieldError.invalid('reportingInstance', '', `can have at most ${ReportingInstanceLengthLimit} characters`));
    const action = str(event.action);
    if (action === '') errs.push(fieldError.required('action'));
    if (byteLength(action) > ActionLengthLimit) errs.push(fieldError.invalid('action', '', `can have at most ${ActionLengthLimit} characters`));
    const reason = str(event.reason);
    if (reason === '') errs.push(fieldError.required('reason'));
    if (byteLength(reason) > ReasonLengthLimit) errs.push(fieldError.invalid('reason', '', `can have at most ${ReasonLengthLimit} characters`));
    if (byteLength(str(event.message)) > NoteLengthLimit) errs.push(fieldError.invalid('message', '', `can have at most ${NoteLengthLimit} characters`));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(fieldError.invalid('namespace', namespace, msg));
  return errs;
}

export const eventStrategy: ResourceStrategy = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  nameValidator: null,
  validate: (event) => validateEventV1(event),
  validateUpdate: (event) => validateEventV1(event),
};
