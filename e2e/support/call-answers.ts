/**
 * What the backend answered to the page's calls, read off the page's WebSockets (browser mode):
 * `const answers = watchAnswers(page)` before the page connects (page.on("websocket") sees only
 * sockets opened afterwards: reload the page after it), then `answers.next("cancelImport")`
 * before the click that sends the call resolves with the value of the backend's answer to it
 * (rejects when the answer is an error). Specs wait on it to know the backend has acted on a click
 * before they go on, instead of waiting a while. `holdAnswers` routes the page's socket through the
 * spec and keeps the backend's answers to one method from the page until the spec releases them:
 * what the page does with them (the next upload chunk) waits, provably unfinished, meanwhile.
 */
import type { Page, WebSocket, WebSocketRoute } from "@playwright/test";

interface Frame {
  t?: unknown;
  id?: unknown;
  method?: unknown;
  result?: { ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } };
}

interface Waiting {
  method: string;
  /** the call this waits for the answer to, once the page sent it */
  call: { ws: WebSocket; id: unknown } | null;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

function parse(payload: string | Buffer): Frame | null {
  try {
    const frame: unknown = JSON.parse(String(payload));
    return typeof frame === "object" && frame !== null ? (frame as Frame) : null;
  } catch {
    return null;
  }
}

export interface CallAnswers {
  /** the answer to the next call of `method` the page sends from now on */
  next<T = unknown>(method: string): Promise<T>;
}

export function watchAnswers(page: Page): CallAnswers {
  const waiting: Waiting[] = [];
  page.on("websocket", (ws) => {
    ws.on("framesent", (f) => {
      const frame = parse(f.payload);
      if (frame?.t !== "call") return;
      const w = waiting.find((x) => x.call === null && x.method === frame.method);
      if (w) w.call = { ws, id: frame.id };
    });
    ws.on("framereceived", (f) => {
      const frame = parse(f.payload);
      if (frame?.t !== "result") return;
      const i = waiting.findIndex((x) => x.call?.ws === ws && x.call.id === frame.id);
      if (i < 0) return;
      const [w] = waiting.splice(i, 1);
      if (frame.result?.ok === true) w!.resolve(frame.result.value);
      else w!.reject(new Error(`${w!.method}: ${String(frame.result?.error?.code)}: ${String(frame.result?.error?.message)}`));
    });
  });
  return {
    next: <T,>(method: string) => new Promise<T>((resolve, reject) => waiting.push({ method, call: null, resolve: resolve as (v: unknown) => void, reject })),
  };
}

export interface HeldAnswers {
  /** how many answers are held back now */
  held(): number;
  /** sends the held answers to the page, in their order, and holds none from now on */
  release(): void;
}

/**
 * Routes the page's WebSocket through the spec (every frame goes both ways, in order) and holds back
 * the backend's answers to `method` calls once `passed` of them reached the page. Call it before the
 * page connects (then reload it).
 */
export async function holdAnswers(page: Page, method: string, passed: number): Promise<HeldAnswers> {
  const calls = new Set<unknown>();
  const held: { page: WebSocketRoute; frame: string | Buffer }[] = [];
  let through = 0;
  let releasing = false;
  await page.routeWebSocket(/\/ws\b/u, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((frame) => {
      const call = parse(frame);
      if (call?.t === "call" && call.method === method) calls.add(call.id);
      server.send(frame);
    });
    server.onMessage((frame) => {
      const result = parse(frame);
      if (!releasing && result?.t === "result" && calls.has(result.id) && ++through > passed) held.push({ page: ws, frame });
      else ws.send(frame);
    });
  });
  return {
    held: () => held.length,
    release() {
      releasing = true;
      for (const { page: ws, frame } of held.splice(0)) ws.send(frame);
    },
  };
}
