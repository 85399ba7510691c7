/**
 * A load balancer with no session affinity, at its most unkind, for page tests of a team archive:
 * one loopback address whose WebSocket upgrades all go to one `team serve` process and whose plain
 * HTTP requests (the page, its downloads) all go to another. Requests and upgrades are passed on as
 * they came (the Host and Origin headers kept), so each process sees what it would behind a proxy.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as net from "node:net";

export interface SplitProxy {
  url: string;
  /** how many plain requests and upgrades went through */
  counts: { http: number; upgrades: number };
  close(): Promise<void>;
}

const target = (url: string): { host: string; port: number } => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};

/** Listens on a free loopback port: upgrades to `socketsTo`, every other request to `requestsTo` (both http://host:port). */
export async function startSplitProxy(socketsTo: string, requestsTo: string): Promise<SplitProxy> {
  const counts = { http: 0, upgrades: 0 };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    counts.http += 1;
    const to = target(requestsTo);
    const forwarded = http.request({ ...to, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on("error", () => response.destroy());
    request.pipe(forwarded);
  });
  server.on("upgrade", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    counts.upgrades += 1;
    const upstream = net.connect(target(socketsTo), () => {
      const lines = [`${request.method} ${request.url} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => (client.destroy(), upstream.destroy()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    async close() {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
