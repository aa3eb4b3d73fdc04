// Tables of the workload kinds: the columns kubectl get prints for deployments, replicasets,
// daemonsets, statefulsets, jobs, cronjobs and controllerrevisions.
import { arr, boolPtr, formatLabelSelector, formatMap, humanDuration, int, obj, since, str, templateContainers } from './format.js';
import { ageColumn, column, nameColumn, type ColumnDefinition, type TablePrinter } from './types.js';

const wideTemplateColumns = (selectorDescription: string): ColumnDefinition[] => [
  column('Containers', 'string', 'Names of the containers in the template.', 1),
  column('Images', 'string', 'Images of the containers in the template.', 1),
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
    column('Ready', 'string', 'Ready pods out of desired pods.'),
    column('Up-to-date', 'string', 'Pods that run the current template.'),
    column('Available', 'string', 'Pods ready for at least minReadySeconds.'),
    ageColumn,
    ...wideTemplateColumns('The label selector of the deployment.'),
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
    column('Desired', 'integer', 'Desired number of pods.'),
    column('Current', 'integer', 'Number of pods that exist.'),
    column('Ready', 'integer', 'Number of ready pods.'),
    ageColumn,
    ...wideTemplateColumns('The label selector of the replica set.'),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [name(o), int(spec.replicas), int(status.replicas), int(status.readyReplicas), age(o, now), ...wideCells(spec)];
  },
};

export const daemonSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    column('Current', 'integer', 'Nodes that run at least one daemon pod.'),
    column('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    column('Up-to-date', 'integer', 'Nodes that run the current template.'),
    column('Available', 'integer', 'Nodes whose daemon pod is available.'),
    column('Node Selector', 'string', 'The node selector of the pod template.'),
    ageColumn,
    ...wideTemplateColumns('The label selector of the daemon set.'),
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
    column('Containers', 'string', 'Names of the containers in the template.', 1),
    column('Images', 'string', 'Images of the containers in the template.', 1),
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
    column('Completions', 'string', 'Succeeded pods out of the completions wanted.'),
    column('Duration', 'string', 'How long the job ran (or has been running).'),
    ageColumn,
    ...wideTemplateColumns('The label selector of the job’s pods.'),
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
    column('Schedule', 'string', 'The cron schedule.'),
    column('Suspend', 'boolean', 'Whether later runs are suspended.'),
    column('Active', 'integer', 'Jobs running now.'),
    column('Last Schedule', 'string', 'When a job was last scheduled.'),
    ageColumn,
    ...wideTemplateColumns('The label selector of the jobs’ pods.'),
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
