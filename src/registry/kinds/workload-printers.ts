// Tables of the workload kinds: the columns kubectl get prints for deployments, replicasets,
// replicationcontrollers, daemonsets, statefulsets, jobs, cronjobs and controllerrevisions.
import { arr, boolPtr, formatLabelSelector, formatMap, humanDuration, int, obj, since, str, templateContainers } from '../printers/format.js';
import { ageColumn, column, nameColumn, type ColumnDefinition, type TablePrinter } from '../printers/types.js';

const wideTemplateColumns = (selectorDescription: string): ColumnDefinition[] => [
  column('Containers', 'string', 'Names of each container in the template.', 1),
  column('Images', 'string', 'Images referenced by each container in the template.', 1),
  column('Selector', 'string', selectorDescription, 1),
];

function wideCells(spec: Record<string, unknown>): string[] {
  const { names, images } = templateContainers(spec.template);
  return [names, images, formatLabelSelector(spec.selector)];
}

const name = (o: Record<string, unknown>) => str(obj(o.metadata).name);
const age = (o: Record<string, unknown>, now: number) => since(obj(o.metadata).creationTimestamp, now);

export const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn,
    ...wideTemplateColumns(
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [name(o), `${int(status.readyReplicas)}/${int(spec.replicas)}`, int(status.updatedReplicas), int(status.availableReplicas), age(o, now), ...wideCells(spec)];
  },
};

export const replicaSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn,
    ...wideTemplateColumns(
      'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [name(o), int(spec.replicas), int(status.replicas), int(status.readyReplicas), age(o, now), ...wideCells(spec)];
  },
};

const RC_DOC = 'https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller';

/** core/v1 replicationcontrollers: a ReplicaSet's columns, with the map selector printed as labels. */
export const replicationControllerPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', `Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: ${RC_DOC}`),
    column('Current', 'integer', `Replicas is the most recently observed number of replicas. More info: ${RC_DOC}`),
    column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    ageColumn,
    ...wideTemplateColumns(
      'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const { names, images } = templateContainers(spec.template);
    return [name(o), int(spec.replicas), int(status.replicas), int(status.readyReplicas), age(o, now), names, images, formatMap(spec.selector)];
  },
};

export const daemonSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    column('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    column('Node Selector', 'string', 'NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node\'s labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/'),
    ageColumn,
    ...wideTemplateColumns(
      'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const s = obj(o.status);
    return [
      name(o),
      int(s.desiredNumberScheduled),
      int(s.currentNumberScheduled),
      int(s.numberReady),
      int(s.updatedNumberScheduled),
      int(s.numberAvailable),
      formatMap(obj(obj(spec.template).spec).nodeSelector),
      age(o, now),
      ...wideCells(spec),
    ];
  },
};

export const statefulSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready pods out of desired pods.'),
    ageColumn,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const { names, images } = templateContainers(spec.template);
    return [name(o), `${int(obj(o.status).readyReplicas)}/${int(spec.replicas)}`, age(o, now), names, images];
  },
};

export const jobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    ...wideTemplateColumns(
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const succeeded = int(status.succeeded);
    let completions: string;
    if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
    else if (int(spec.parallelism) > 1) completions = `${succeeded}/1 of ${int(spec.parallelism)}`;
    else completions = `${succeeded}/1`;
    let duration = '';
    const start = typeof status.startTime === 'string' ? Date.parse(status.startTime) : NaN;
    if (!Number.isNaN(start)) {
      const end = typeof status.completionTime === 'string' ? Date.parse(status.completionTime) : now;
      duration = humanDuration(end - start);
    }
    return [name(o), completions, duration, age(o, now), ...wideCells(spec)];
  },
};

export const cronJobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    column('Active', 'integer', 'A list of pointers to currently running jobs.'),
    column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageColumn,
    ...wideTemplateColumns(
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const jobSpec = obj(obj(spec.jobTemplate).spec);
    const { names, images } = templateContainers(jobSpec.template);
    const last = typeof status.lastScheduleTime === 'string' ? since(status.lastScheduleTime, now) : '<none>';
    return [name(o), str(spec.schedule), boolPtr(spec.suspend), arr(status.active).length, last, age(o, now), names, images, formatLabelSelector(jobSpec.selector)];
  },
};

export const controllerRevisionPrinter: TablePrinter = {
  columns: [nameColumn, column('Controller', 'string', 'The object that owns this revision.'), column('Revision', 'integer', 'The revision number.'), ageColumn],
  cells(o, now) {
    const owner = arr(obj(o.metadata).ownerReferences).find((r) => r.controller === true);
    let controller = '<none>';
    if (owner) {
      const apiVersion = str(owner.apiVersion);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      controller = `${str(owner.kind).toLowerCase()}${group ? `.${group}` : ''}/${str(owner.name)}`;
    }
    return [name(o), controller, int(o.revision), age(o, now)];
  },
};
