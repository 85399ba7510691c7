import { describe, expect, it } from "vitest";
import { useBonsai } from "./store";

describe("notifications", () => {
  it("counts the same message instead of stacking it, and keeps errors (no timer)", () => {
    const s = useBonsai.getState();
    s.notify("error", "Summarization failed: 500 boom, so the session was not compacted.", "s1");
    s.notify("error", "Summarization failed: 500 boom, so the session was not compacted.", "s1");
    const list = useBonsai.getState().notifications;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ level: "error", count: 2, sessionId: "s1" });
  });

  it("keeps the app's and the open session's messages when another session opens", () => {
    const s = useBonsai.getState();
    s.notify("error", "about s2", "s2");
    s.notify("error", "about the app");
    s.scopeNotifications("s2");
    expect(useBonsai.getState().notifications.map((n) => n.message)).toEqual(["about s2", "about the app"]);
    for (const n of useBonsai.getState().notifications) s.dismissNotification(n.id);
    expect(useBonsai.getState().notifications).toEqual([]);
  });

  it("never holds more than four: those that would go by themselves go first", () => {
    const s = useBonsai.getState();
    s.notify("error", "e1");
    for (let i = 0; i < 5; i++) s.notify("warning", `w${i}`);
    const messages = useBonsai.getState().notifications.map((n) => n.message);
    expect(messages).toEqual(["e1", "w2", "w3", "w4"]);
  });
});

describe("narrow windows", () => {
  it("fold the map by default and unfold it again when the window widens; crossing the width closes the session drawer", () => {
    const s = useBonsai.getState();
    expect(s.narrow).toBe(false);
    expect(s.minimapOpen).toBe(true);
    s.setNarrow(true);
    expect(useBonsai.getState()).toMatchObject({ narrow: true, minimapOpen: false, sessionsDrawerOpen: false });
    s.setSessionsDrawer(true);
    s.setMinimapOpen(true);
    expect(useBonsai.getState()).toMatchObject({ minimapOpen: true, sessionsDrawerOpen: true });
    s.setNarrow(false);
    expect(useBonsai.getState()).toMatchObject({ narrow: false, minimapOpen: true, sessionsDrawerOpen: false });
  });
});
