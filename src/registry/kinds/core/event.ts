// core/v1 Event, also served as events.k8s.io/v1 Event: ValidateEventCreate / ValidateEventUpdate.
// Every write passes the legacy validation (no ObjectMeta validation; involvedObject namespace
// agreement; the reporting fields required when eventTime is set); writes through events.k8s.io/v1
// (and newer) get the strict rules on top: ObjectMeta, eventTime and a Normal/Warning type
// required, the deprecated fields unset, and on update everything but the series immutable.
// Field paths are core/v1's names in both versions, as Kubernetes reports them. No status, no
// generation; PUT may create.
import { byteLength, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import type { Event } from '../../../api/types.js';
import { namespaceOf } from '../../../api/meta/object.js';
import { FieldImmutableErrorMsg, num, semanticEqual, str } from '../../../machinery/validation/common.js';
import { goString, goStruct, goTimeString } from '../../../machinery/validation/go-syntax.js';
import { struct } from '../../../machinery/validation/structs.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { validateObjectMeta } from '../../../machinery/validation/object-meta.js';
import type { ResourceStrategy, StrategyContext } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { column, NAME_DESCRIPTION, type TablePrinter } from '../../printers/types.js';
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS, type FieldLabelConversion } from '../../../machinery/selectors/index.js';

const ReportingInstanceLengthLimit = 128;
const ActionLengthLimit = 128;
const ReasonLengthLimit = 128;
const NoteLengthLimit = 1024;

const unsetTime = (v: unknown): boolean => v === undefined || v === null || v === '';

/** legacyValidateEvent: what every write of an Event passes, whatever its version. */
export function validateEventV1(event: Event): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = namespaceOf(event);
  const involvedNamespace = str(struct(event.involvedObject).namespace);
  if (unsetTime(event.eventTime)) {
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
    if (controller === '') errs.push(fieldError.required('reportingController'));
    errs.push(...isQualifiedName(controller).map((msg) => fieldError.invalid('reportingController', controller, msg)));
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

/** Whether a write came in through events.k8s.io/v1 (or a newer events API): the strict rules apply. */
function strict(ctx: StrategyContext | undefined): boolean {
  const gv = ctx?.requestGroupVersion;
  return gv !== undefined && gv !== 'v1' && gv !== 'events.k8s.io/v1beta1';
}

/** validateV1EventSeries. */
function validateSeries(event: Event): FieldError[] {
  if (event.series === undefined || event.series === null) return [];
  const errs: FieldError[] = [];
  if (num(event.series.count) < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
  if (unsetTime(event.series.lastObservedTime)) errs.push(fieldError.required('series.lastObservedTime'));
  return errs;
}

/** ValidateEventCreate for the request's group/version. */
export function validateEventCreate(event: Event, ctx?: StrategyContext): FieldError[] {
  const errs = validateEventV1(event);
  if (!strict(ctx)) return errs;
  errs.push(...validateObjectMeta({ metadata: event.metadata ?? {} }, { namespaced: true, nameValidator: nameIsDNSSubdomain }));
  errs.push(...validateSeries(event));
  if (unsetTime(event.eventTime)) errs.push(fieldError.required('eventTime'));
  const type = str(event.type);
  if (type !== 'Normal' && type !== 'Warning') errs.push(fieldError.invalid('type', '', `has invalid value: ${type}`));
  if (!unsetTime(event.firstTimestamp)) errs.push(fieldError.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!unsetTime(event.lastTimestamp)) errs.push(fieldError.invalid('lastTimestamp', '', 'needs to be unset'));
  if (num(event.count) !== 0) errs.push(fieldError.invalid('count', '', 'needs to be unset'));
  const source = struct(event.source);
  if (str(source.component) !== '' || str(source.host) !== '') errs.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** core.ObjectReference as %#v prints it in a field error. */
function goObjectReference(v: unknown): string {
  const r = struct(v as Event['involvedObject']);
  return goStruct('core.ObjectReference', [
    ['Kind', goString(r.kind)],
    ['Namespace', goString(r.namespace)],
    ['Name', goString(r.name)],
    ['UID', goString(r.uid)],
    ['APIVersion', goString(r.apiVersion)],
    ['ResourceVersion', goString(r.resourceVersion)],
    ['FieldPath', goString(r.fieldPath)],
  ]);
}

/** ValidateEventUpdate for the request's group/version (ObjectMeta's update rules are the store's). */
export function validateEventUpdate(event: Event, old: Event, ctx?: StrategyContext): FieldError[] {
  const errs = validateEventV1(event);
  if (!strict(ctx)) return errs;
  if (!semanticEqual(event.series, old.series)) errs.push(...validateSeries(event));
  const immutable = (name: keyof Event & string, path: string, render?: (v: unknown) => string) => {
    if (semanticEqual(event[name], old[name])) return;
    const value = event[name];
    errs.push(render ? fieldError.invalidRaw(path, render(value), FieldImmutableErrorMsg) : fieldError.invalid(path, value ?? null, FieldImmutableErrorMsg));
  };
  immutable('involvedObject', 'involvedObject', goObjectReference);
  immutable('reason', 'reason');
  immutable('message', 'message');
  immutable('source', 'source', (v) => goStruct('core.EventSource', [['Component', goString(struct(v as Event['source']).component)], ['Host', goString(struct(v as Event['source']).host)]]));
  immutable('firstTimestamp', 'firstTimestamp', goTimeString);
  immutable('lastTimestamp', 'lastTimestamp', goTimeString);
  immutable('count', 'count');
  immutable('reason', 'reason'); // Kubernetes checks reason twice (and reports it twice)
  immutable('type', 'type');
  immutable('eventTime', 'eventTime', goTimeString);
  immutable('action', 'action');
  immutable('related', 'related', (v) => (v === undefined || v === null ? 'null' : goObjectReference(v)));
  immutable('reportingComponent', 'reportingController');
  immutable('reportingInstance', 'reportingInstance');
  return errs;
}

export const eventStrategy: ResourceStrategy<Event> = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  nameValidator: null,
  validate: (event, ctx) => validateEventCreate(event, ctx),
  validateUpdate: (event, old, ctx) => validateEventUpdate(event, old, ctx),
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

const coreV1FieldLabels: FieldLabelConversion = {
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
};

/** AddFieldLabelConversionsForEvent (events.k8s.io/v1): its own names mapped onto core's selectable fields. */
const eventsV1FieldLabels: FieldLabelConversion = {
  labels: ['reason', 'source', 'type', ...META_FIELD_LABELS],
  aliases: {
    'regarding.kind': 'involvedObject.kind',
    'regarding.namespace': 'involvedObject.namespace',
    'regarding.name': 'involvedObject.name',
    'regarding.uid': 'involvedObject.uid',
    'regarding.apiVersion': 'involvedObject.apiVersion',
    'regarding.resourceVersion': 'involvedObject.resourceVersion',
    'regarding.fieldPath': 'involvedObject.fieldPath',
    reportingController: 'reportingComponent',
  },
  error: fieldLabelErrors.notSupported,
};

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
  fieldLabels: ({ group }) => (group === 'events.k8s.io' ? eventsV1FieldLabels : coreV1FieldLabels),
};
