/**
 * Large answers waiting for their one download (parked-answers.ts), served by a real HTTP server:
 * the gzip as it is to a client that takes gzip, decompressed for any other; once; never after it
 * waited too long; never past the memory they may take.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_PATH } from "@bonsai/ipc";
import { ParkedAnswers } from "../src/parked-answers";

const json = JSON.stringify({ session: { id: "alpha/s" }, skeleton: { ids: Array.from({ length: 1000 }, (_, i) => `entry-${i}`) } });
const gzip = zlib.gzipSync(json);
const parked = new ParkedAnswers({ keepMs: 60_000 });
const briefly = new ParkedAnswers({ keepMs: 30 });
const owners: string[] = [];
let server: http.Server;
let origin = "";

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    const from = url.searchParams.get("from") === "briefly" ? briefly : parked;
    void from.serve(request, response, url.pathname.slice(ANSWER_PATH.length), (owner) => owners.push(owner));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  parked.close();
  briefly.close();
  await new Promise((resolve) => server.close(resolve));
});

/** a raw GET (no decompression): status, headers, body bytes */
function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("a parked answer", () => {
  it("is sent as its gzip to a client that takes gzip, once, with the owner named for the log", async () => {
    const href = parked.park(gzip, "amy") as string;
    expect(href).toMatch(/^\/answer\/[A-Za-z0-9_-]{43}$/u);
    const first = await get(href, { "accept-encoding": "gzip, deflate, br" });
    expect(first.status).toBe(200);
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(first.headers["cache-control"]).toBe("no-store");
    expect(first.body.equals(gzip)).toBe(true);
    expect(owners.at(-1)).toBe("amy");
    const again = await get(href, { "accept-encoding": "gzip" });
    expect(again.status).toBe(404);
    expect(again.body.toString()).toContain("downloaded already or waited too long");
    expect(parked.size).toBe(0);
  });

  it("is decompressed for a client that does not take gzip", async () => {
    const href = parked.park(gzip) as string;
    const answer = await get(href);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.toString("utf8")).toBe(json);
  });

  it("is what the platform's fetch gives back as the JSON", async () => {
    const href = parked.park(gzip) as string;
    expect(await (await fetch(`${origin}${href}`)).json()).toEqual(JSON.parse(json));
  });

  it("is not taken by another method, an unknown id, or after it waited too long", async () => {
    const href = parked.park(gzip) as string;
    expect((await get(href, {}, "HEAD")).status).toBe(405);
    expect((await get(href, {}, "POST")).status).toBe(405);
    expect((await get(`${ANSWER_PATH}${"A".repeat(43)}`)).status).toBe(404);
    expect((await get(href)).status).toBe(200);
    const short = briefly.park(gzip) as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await get(`${short}?from=briefly`)).status).toBe(404);
    expect(briefly.size).toBe(0);
  });

  it("is refused (it goes in its frame) when the parked answers would pass their memory", () => {
    const small = new ParkedAnswers({ maxBytes: gzip.length * 2 });
    expect(small.park(gzip)).toBeDefined();
    expect(small.park(gzip)).toBeDefined();
    expect(small.park(gzip)).toBeUndefined();
    small.close();
    expect(small.size).toBe(0);
    expect(small.park(gzip)).toBeDefined();
    small.close();
  });
});
