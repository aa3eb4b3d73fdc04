// core/v1 Event: the legacy validation Kubernetes applies to events written through core/v1 (no
// ObjectMeta validation; involvedObject namespace agreement; the events.k8s.io-style required
// fields when eventTime is set). No status, no generation; PUT may create.
import { byteLength, isDNS1123Subdomain, isQualifiedName } from '../../../machinery/validation/names.js';
import type { Event } from '../../../api/types.js';
import { namespaceOf } from '../../../api/meta/object.js';
import { str } from '../../../machinery/validation/common.js';
import { struct } from '../../../machinery/validation/structs.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { column, NAME_DESCRIPTION, type TablePrinter } from '../../printers/types.js';
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS } from '../../../machinery/selectors/index.js';

const ReportingInstanceLengthLimit = 128;
const ActionLengthLimit = 128;
const ReasonLengthLimit = 128;
const NoteLengthLimit = 1024;

/** legacyValidateEvent for requests in core/v1. */
export function validateEventV1(event: Event): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = namespaceOf(event);
  const involvedNamespace = str(struct(event.involvedObject).namespace);
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

export const eventStrategy: ResourceStrategy<Event> = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  nameValidator: null,
  validate: (event) => validateEventV1(event),
  validateUpdate: (event) => validateEventV1(event),
};

function eventSource(o: Record<string, unknown>): string {
  const source = fmt.obj(o.source);
  let component = fmt.str(source.component);
  let host = fmt.str(source.host);
  if (component === '' && host === '') {
    component = fmt.str(o.reportingComponent);
    host = fmt.str(o.reportingInstance);
  }
  return host === '' ? component : `${component}, ${host}`;
}

const eventPrinter: TablePrinter = {
  columns: [
    column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'string', 'The object that this event is about.'),
    column('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.', 1),
    column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    column('Count', 'string', 'The number of times this event has occurred.', 1),
    column('Name', 'string', NAME_DESCRIPTION, 1, 'name'),
  ],
  cells(o, now) {
    const involved = fmt.obj(o.involvedObject);
    let first = fmt.since(o.firstTimestamp, now);
    if (typeof o.firstTimestamp !== 'string') first = fmt.since(o.eventTime, now);
    let last = typeof o.lastTimestamp === 'string' ? fmt.since(o.lastTimestamp, now) : first;
    let count = fmt.int(o.count);
    const series = o.series === undefined || o.series === null ? undefined : fmt.obj(o.series);
    if (series) {
      last = fmt.since(series.lastObservedTime, now);
      count = fmt.int(series.count);
    } else if (count === 0) {
      count = 1;
    }
    const kind = fmt.str(involved.kind).toLowerCase();
    const target = fmt.str(involved.name) === '' ? kind : `${kind}/${fmt.str(involved.name)}`;
    return [last, fmt.str(o.type), fmt.str(o.reason), target, fmt.str(involved.fieldPath), eventSource(o), fmt.str(o.message).trim(), first, count, fmt.nameCell(o)];
  },
};

const sourceComponent = fieldAt.string('source', 'component');
const reportingComponent = fieldAt.string('reportingComponent');

export const eventModule: KindModule = {
  group: '',
  kind: 'Event',
  strategy: eventStrategy,
  printer: eventPrinter,
  selectableFields: {
    'involvedObject.kind': fieldAt.string('involvedObject', 'kind'),
    'involvedObject.namespace': fieldAt.string('involvedObject', 'namespace'),
    'involvedObject.name': fieldAt.string('involvedObject', 'name'),
    'involvedObject.uid': fieldAt.string('involvedObject', 'uid'),
    'involvedObject.apiVersion': fieldAt.string('involvedObject', 'apiVersion'),
    'involvedObject.resourceVersion': fieldAt.string('involvedObject', 'resourceVersion'),
    'involvedObject.fieldPath': fieldAt.string('involvedObject', 'fieldPath'),
    reason: fieldAt.string('reason'),
    reportingComponent,
    source: (o) => sourceComponent(o) || reportingComponent(o),
    type: fieldAt.string('type'),
  },
  fieldLabels: () => ({
    labels: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
      ...META_FIELD_LABELS,
    ],
    error: fieldLabelErrors.notSupported,
  }),
};
