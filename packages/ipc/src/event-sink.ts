import type { EventName, EventPayload } from "./contract";

/** Where the backend pushes events; each transport fans them out to its clients. */
export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
