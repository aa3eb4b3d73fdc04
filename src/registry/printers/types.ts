/** One column of a Table (meta.k8s.io/v1 TableColumnDefinition). */
export interface ColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  /** 0 = always shown; > 0 = shown with `-o wide`. */
  priority: number;
}

export interface TableRowCondition {
  type: 'Completed';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** How one kind prints as a Table: its columns and the cells of one object at time `now` (ms). */
export interface TablePrinter {
  columns: readonly ColumnDefinition[];
  cells(object: Record<string, unknown>, now: number): unknown[];
  /** Row conditions (pods report Completed for finished pods, as Kubernetes does). */
  conditions?(object: Record<string, unknown>): TableRowCondition[] | undefined;
}

export function column(name: string, type: ColumnDefinition['type'], description: string, priority = 0, format = ''): ColumnDefinition {
  return { name, type, format, description, priority };
}

/** The Name column every printer starts with (format "name" lets kubectl find the object's name). */
// The Name and Age columns are described by ObjectMeta's API documentation, as Kubernetes does.
export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';
export const nameColumn = column('Name', 'string', NAME_DESCRIPTION, 0, 'name');
export const ageColumn = column(
  'Age',
  'string',
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
);
