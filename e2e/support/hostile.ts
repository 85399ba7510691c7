/**
 * Hostile content for the specs that show sessions (the HTML export, the app): payloads that would
 * run script if any of them reached the page as markup, sessions made of real files whose every
 * string and number field (but the ones that make them sessions) holds one, and a scan of a page's
 * DOM for what such content would leave behind.
 */
import * as fs from "node:fs";
import type { Page } from "@playwright/test";
import fc from "fast-check";

export type HostileAgent = "pi" | "claude-code" | "codex";

/** Fields that make a line a session entry at all: kept, so the hostile values reach the page. */
export const STRUCTURAL = /^(type|role|version|(.*_)?id|.*Id|uuid|.*Uuid|session_id|call_id)$/;

/** Every injected script calls this marker, so a console line or dialog from it is recognisable. */
export const MARK = "BONSAI_PWNED";

export const PAYLOADS = [
  `<script>console.log("${MARK}");alert("${MARK}")</script>`,
  `<img src=x onerror=alert("${MARK}")>`,
  `"><svg onload=alert("${MARK}")>`,
  `'><iframe srcdoc="<script>alert(1)</script>">`,
  `javascript:alert("${MARK}")`,
  `[click](javascript:alert("${MARK}"))`,
  `[v](vbscript:msgbox("${MARK}"))`,
  `![x](data:image/svg+xml,<svg onload=alert("${MARK}")>)`,
  `[d](data:text/html,<script>alert("${MARK}")</script>)`,
  `<a href="javascript:alert('${MARK}')">x</a>`,
  "&lt;script&gt;alert(1)&lt;/script&gt; &#x3C;img src=x onerror=alert(1)&#x3E; &amp;&quot;",
  `<style>body{display:none}</style><div style="background:url(javascript:alert(1))">`,
  `\`\`\`"><script>alert("${MARK}")</script>\n\`\`\``,
  ">".repeat(5_000),
  "`a``".repeat(5_000),
  "[a](".repeat(5_000),
  `${"- ".repeat(200)}<b onmouseover=alert(1)>x</b>`,
  `${"*a **".repeat(2_000)}`,
  `[x](https://x/**y**"onmouseover="alert(1))`,
];

export const hostileString = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...PAYLOADS), fc.string({ maxLength: 20 })).map(([a, p, b]) => `${a}${p}${b}`),
);

/** Replaces every non-structural string and number of a JSON value, in order, from `pool`. */
export function poison(value: unknown, pool: readonly string[], counter: { i: number }, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => poison(v, pool, counter, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, pool, counter, k)]));
  }
  if ((typeof value === "string" || typeof value === "number") && !STRUCTURAL.test(key)) return pool[counter.i++ % pool.length];
  return value;
}

export function hostileSession(source: string, pool: readonly string[], agent: HostileAgent): string {
  const lines = fs.readFileSync(source, "utf8").split("\n").filter((l) => l.trim() !== "").slice(0, 80);
  const values = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  if (agent === "pi") {
    // a compaction (with its tokensBefore number) on the active path
    const last = values[values.length - 1] as { id: string };
    values.push({ type: "compaction", id: "c0mpac7", parentId: last.id, timestamp: "2026-08-13T09:00:00.000Z", summary: "s", firstKeptEntryId: last.id, tokensBefore: 1 });
  }
  const counter = { i: 0 };
  // the header keeps its shape (its id and type) so the file is still a session of its agent
  return values.map((v, i) => JSON.stringify(i === 0 && agent === "pi" ? v : poison(v, pool, counter))).join("\n") + "\n";
}

/** Handler attributes, script URLs and data: URLs (but base64 images) in the page; its script and frame elements. */
export function hostileDomFindings(page: Page): Promise<{ bad: string[]; scripts: number; frames: number }> {
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const el of Array.from(document.querySelectorAll("*"))) {
      for (const attr of Array.from(el.attributes)) {
        if (/^on/i.test(attr.name)) bad.push(`${el.tagName} ${attr.name}`);
        const v = attr.value.trim().toLowerCase();
        if (/^(href|src|action|formaction|xlink:href|poster|srcset)$/i.test(attr.name) && /^(javascript|vbscript):/.test(v)) bad.push(`${el.tagName} ${attr.name}=${v.slice(0, 40)}`);
        if (v.startsWith("data:") && !(el.tagName === "IMG" && attr.name === "src" && /^data:image\/[\w.+-]+;base64,/.test(v))) bad.push(`${el.tagName} ${attr.name}=${v.slice(0, 40)}`);
      }
    }
    const scripts = document.querySelectorAll("script").length;
    const frames = document.querySelectorAll("iframe, object, embed, svg script").length;
    return { bad, scripts, frames };
  });
}

/** What injected code did on the page from now on: dialogs it opened, console lines with the marker. */
export function watchInjected(page: Page): string[] {
  const injected: string[] = [];
  page.on("dialog", (d) => {
    injected.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("console", (msg) => {
    if (msg.text().includes(MARK)) injected.push(`console: ${msg.text()}`);
  });
  return injected;
}
