/**
 * The built renderer's files over HTTP, with the headers every server of the page sends (browser
 * mode's `bonsai serve` and the team archive's `bonsai team serve`): a path outside the folder is a
 * 404, an unknown path is the page itself (index.html, never cached), assets are cached for an hour;
 * and the prepared exports the page downloads.
 */
import * as fs from "node:fs";
import type * as http from "node:http";
import * as path from "node:path";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json; charset=utf-8",
};

/** The page's Content-Security-Policy; `connect` lists where its WebSocket may go (besides 'self'). */
export function pageCsp(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connect].join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The index.html of a built renderer folder, or an error saying the app is not built. */
export function rendererIndex(rendererDir: string): string {
  const indexFile = path.join(path.resolve(rendererDir), "index.html");
  if (!fs.existsSync(indexFile)) throw new Error(`the renderer is not built (${indexFile} is missing); run \`pnpm build\` first`);
  return indexFile;
}

/** Answers a GET or HEAD of `pathname` (already decoded) from the renderer folder. */
export function serveRendererFile(rendererDir: string, pathname: string, req: http.IncomingMessage, res: http.ServerResponse, csp: string): void {
  const root = path.resolve(rendererDir);
  const indexFile = path.join(root, "index.html");
  let file = path.join(root, path.normalize(pathname));
  if (!file.startsWith(root + path.sep) && file !== root) {
    res.writeHead(404).end();
    return;
  }
  if (pathname === "/" || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = indexFile;
  const type = MIME[path.extname(file)] ?? "application/octet-stream";
  res.writeHead(200, {
    "content-type": type,
    "cache-control": file === indexFile ? "no-store" : "public, max-age=3600",
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
  });
  if (req.method === "HEAD") res.end();
  else fs.createReadStream(file).pipe(res);
}

/** Streams a prepared export (downloads.ts) once, or says that it is gone. */
export function sendPreparedDownload(res: http.ServerResponse, download: { file: string; fileName: string; mimeType: string; done: () => void } | undefined): void {
  if (!download) {
    res.writeHead(404, { "content-type": "text/plain" }).end("this download is gone: each export link works once, for a few minutes; export again\n");
    return;
  }
  let size: number;
  try {
    size = fs.statSync(download.file).size;
  } catch {
    download.done();
    res.writeHead(404, { "content-type": "text/plain" }).end("this download is gone; export again\n");
    return;
  }
  res.writeHead(200, {
    "content-type": download.mimeType,
    "content-length": size,
    "content-disposition": `attachment; filename="${download.fileName.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  const stream = fs.createReadStream(download.file);
  res.on("close", () => {
    stream.destroy();
    download.done();
  });
  stream.pipe(res);
}
