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
export const nameColumn = column('Name', 'string', 'The name of the object, unique within its namespace (or the cluster).', 0, 'name');
export const ageColumn = column('Age', 'string', 'Time since the object was created.');
