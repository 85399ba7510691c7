/**
 * A session as one self-contained HTML page: the tree (compactions and branch summaries marked),
 * the transcript of the active path, the context chart. CSS and script are inline, the page's
 * Content-Security-Policy allows no network request at all and no inline script or style but
 * those two (named by their SHA-256), images are data: URLs.
 */
import { sha256 } from "@noble/hashes/sha2";
import { utf8ToBytes } from "@noble/hashes/utils";
import { buildIndex, firstRealPrompt, getPath, sessionTitle, undoneCompactionIds } from "@bonsai/core";
import type { AgentKind, ReadSession } from "../types";
import { renderChart } from "./chart";
import { leafContextLine } from "../context-line";
import { escapeHtml } from "./escape";
import { SCRIPT, STYLE } from "./style";
import { renderTranscript } from "./transcript";
import { renderTree } from "./tree";

export const AGENT_NAMES: Record<AgentKind, string> = { pi: "pi", omp: "oh-my-pi", "claude-code": "Claude Code", codex: "Codex" };

/** The CSP source naming one inline script or style by the SHA-256 of its exact text. */
export function cspHash(text: string): string {
  return `'sha256-${base64(sha256(utf8ToBytes(text)))}'`;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with padding (no Buffer or btoa: this package is pure). */
function base64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = [18, 12, 6, 0].map((shift) => BASE64[(n >> shift) & 63]);
    out += chars.slice(0, Math.min(4, bytes.length - i + 1)).join("").padEnd(4, "=");
  }
  return out;
}

/**
 * No network, and no inline script or style but the page's own, each named by its hash: a value
 * from a session that escaped into the markup could neither run nor restyle the page.
 */
export const CSP = `default-src 'none'; style-src ${cspHash(STYLE)}; script-src ${cspHash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'; object-src 'none'`;

export interface HtmlOptions {
  /** the leaf whose path is the transcript (default: the session's leaf) */
  leafId?: string | null;
}

export function renderHtml(session: ReadSession, options: HtmlOptions = {}): string {
  const index = buildIndex(session.entries);
  const leafId = options.leafId === undefined ? session.leafId : options.leafId;
  const path = getPath(index, leafId);
  const anchors = new Map(path.map((e, i) => [e.id, `e${i}`]));
  const title = sessionTitle({ name: session.title, firstPrompt: firstRealPrompt(session.entries) }) ?? `${AGENT_NAMES[session.agent]} session ${session.header.id}`;
  // an undone compaction (core undo-markers.ts) is not counted
  const compactions = session.entries.filter((e) => e.type === "compaction").length - undoneCompactionIds(session.entries).size;
  const facts = [
    AGENT_NAMES[session.agent],
    session.header.cwd,
    session.header.id,
    session.header.timestamp,
    `${session.entries.length} entries`,
    `${path.length} on the active path`,
    `${compactions} ${compactions === 1 ? "compaction" : "compactions"}`,
  ].filter((f) => f !== "");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="generator" content="Bonsai"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header class="top"><div><h1>${escapeHtml(title)}</h1><div class="facts">${facts.map((f) => `<span>${escapeHtml(f)}</span>`).join("")}</div></div><button id="theme" type="button" title="Switch between light and dark">Light / dark</button></header>
<main><nav class="tree-panel" aria-label="Session tree"><h2 class="section">Tree</h2>${renderTree(session.entries, anchors, leafId)}</nav>
<div class="content"><h2 class="section">Context</h2><p class="context-figure">${escapeHtml(leafContextLine(path))}</p>${renderChart(path)}<h2 class="section">Transcript of the active path</h2><div class="transcript">${renderTranscript(path, anchors)}</div></div></main>
<script>${SCRIPT}</script></body></html>
`;
}
