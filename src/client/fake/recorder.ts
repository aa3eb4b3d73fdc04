// FakeRecorder: collects events instead of writing them (client-go's record.FakeRecorder).
import type { EventRecorder, KubeObject } from '../types.js';

export interface RecordedEvent {
  component: string;
  object: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export class FakeRecorder implements EventRecorder {
  constructor(
    readonly component = 'fake',
    /** Where events go: shared by every recorder of one fake context. */
    readonly events: RecordedEvent[] = [],
  ) {}

  event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.push({ component: this.component, object: obj, type, reason, message });
  }

  /** `Type Reason message`, as client-go's FakeRecorder writes to its channel. */
  strings(): string[] {
    return this.events.map((e) => `${e.type} ${e.reason} ${e.message}`);
  }
}
