// Fakes for controller unit tests.
export { FakeClientset, ObjectTracker, refOfObject, type FakeAction, type FakeVerb, type Reactor, type ReactorResult, type FakeClientsetOptions } from './clientset.js';
export { FakeInformerFactory, FakeSharedInformer, flush, toPartialObjectMetadata } from './informers.js';
export { FakeRecorder, type RecordedEvent } from './recorder.js';
export { FakeClock, fakeControllerContext, type FakeControllerContext, type FakeControllerContextOptions } from './context.js';
export { QueueWatch } from './watch.js';
export { FakeDiscovery } from './discovery.js';
