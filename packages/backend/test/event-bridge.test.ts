import { describe, expect, it } from "vitest";
import type { Engine, EngineEvents } from "@bonsai/engine";
import type { EventName, EventPayload } from "@bonsai/ipc";
import { RequestTracker } from "../src/engine-handlers";
import { autoCompactionNotification, forwardEngineEvents } from "../src/event-bridge";

/** Just enough of an Engine to deliver events to the bridge. */
function fakeEngine() {
  const listeners = new Map<string, ((e: unknown) => void)[]>();
  const engine = {
    on(name: string, fn: (e: unknown) => void) {
      listeners.set(name, [...(listeners.get(name) ?? []), fn]);
      return () => undefined;
    },
  } as unknown as Engine;
  const fire = <K extends keyof EngineEvents>(name: K, e: EngineEvents[K]) => (listeners.get(name) ?? []).forEach((fn) => fn(e));
  return { engine, fire };
}

function notificationsFor(end: Omit<EngineEvents["auto_compaction_end"], "sessionId">): EventPayload<"notification">[] {
  const { engine, fire } = fakeEngine();
  const sent: { event: EventName; payload: unknown }[] = [];
  forwardEngineEvents(engine, (event, payload) => sent.push({ event, payload }), new RequestTracker());
  fire("auto_compaction_end", { sessionId: "s1", ...end });
  return sent.filter((s) => s.event === "notification").map((s) => s.payload as EventPayload<"notification">);
}

describe("automatic compaction outcomes become exactly one notification in the seed's words", () => {
  it("failures carry the engine's message verbatim (threshold and overflow)", () => {
    expect(notificationsFor({ reason: "threshold", result: undefined, aborted: false, willRetry: false, errorMessage: "Auto-compaction failed: 400 refused" })).toEqual([
      { level: "warning", message: "Auto-compaction failed: 400 refused", sessionId: "s1" },
    ]);
    expect(
      notificationsFor({ reason: "overflow", result: undefined, aborted: false, willRetry: false, errorMessage: "Context overflow recovery failed: compaction failed" }),
    ).toEqual([{ level: "warning", message: "Context overflow recovery failed: compaction failed", sessionId: "s1" }]);
  });

  it("cancelled, nothing to do, and success", () => {
    expect(notificationsFor({ reason: "threshold", result: undefined, aborted: true, willRetry: false })).toEqual([
      { level: "info", message: "Auto-compaction cancelled", sessionId: "s1" },
    ]);
    expect(notificationsFor({ reason: "threshold", result: undefined, aborted: false, willRetry: false })).toEqual([
      { level: "warning", message: "Auto-compaction failed; continuing without compaction", sessionId: "s1" },
    ]);
    const result = { summary: "s", firstKeptEntryId: "e", tokensBefore: 1 } as NonNullable<EngineEvents["auto_compaction_end"]["result"]>;
    expect(autoCompactionNotification({ result, aborted: false })).toEqual({ level: "info", message: "Context compacted automatically" });
  });
});
