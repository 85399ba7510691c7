/**
 * A property test of the HTML export against hostile sessions: real pi, Claude Code and Codex
 * sessions whose every string and number field (all but the entry types, roles and ids that make
 * them sessions) is replaced by hostile content — script tags, event-handler attributes,
 * javascript:/vbscript:/data: URLs, entities, deep nesting and huge runs. Each export, opened in
 * Chromium, must run no script (no dialog, no console message from injected code) and hold no
 * on* attribute and no script URL.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import fc from "fast-check";
import { CLI, SHARED_FIXTURES } from "../support/paths";

const SOURCES = {
  pi: "real/pi/codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl",
  "claude-code": "real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl",
  codex: "real/codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl",
} as const;

/** Fields that make a line a session entry at all: kept, so the hostile values reach the page. */
const STRUCTURAL = /^(type|role|version|(.*_)?id|.*Id|uuid|.*Uuid|session_id|call_id)$/;

/** Every injected script calls this marker, so a console line or dialog from it is recognisable. */
const MARK = "BONSAI_PWNED";

const PAYLOADS = [
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

const hostileString = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...PAYLOADS), fc.string({ maxLength: 20 })).map(([a, p, b]) => `${a}${p}${b}`),
);

/** Replaces every non-structural string and number of a JSON value, in order, from `pool`. */
function poison(value: unknown, pool: readonly string[], counter: { i: number }, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => poison(v, pool, counter, key));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, pool, counter, k)]));
  }
  if ((typeof value === "string" || typeof value === "number") && !STRUCTURAL.test(key)) return pool[counter.i++ % pool.length];
  return value;
}

function hostileSession(source: string, pool: readonly string[], agent: keyof typeof SOURCES): string {
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

async function assertInert(page: Page, url: string): Promise<void> {
  const injected: string[] = [];
  page.on("dialog", (d) => {
    injected.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("console", (msg) => {
    if (msg.text().includes(MARK)) injected.push(`console: ${msg.text()}`);
  });
  await page.goto(url);
  // the page's own script ran (the theme button works) ...
  await page.locator("#theme").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", /light|dark/);
  // ... and nothing else: no handler attribute, no script URL, one script element
  const found = await page.evaluate(() => {
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
  expect(found).toEqual({ bad: [], scripts: 1, frames: 0 });
  expect(injected).toEqual([]);
}

for (const agent of Object.keys(SOURCES) as (keyof typeof SOURCES)[]) {
  test(`HTML export of hostile ${agent} sessions runs no script`, async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const source = path.join(SHARED_FIXTURES, SOURCES[agent]);
    test.skip(!fs.existsSync(source), `${source} is not present next to the checkout`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(hostileString, { minLength: 40, maxLength: 40 }), async (pool) => {
        run++;
        const file = testInfo.outputPath(`${agent}-${run}.jsonl`);
        const out = testInfo.outputPath(`${agent}-${run}.html`);
        fs.writeFileSync(file, hostileSession(source, pool, agent));
        const r = spawnSync(process.execPath, [CLI, "export", file, "--format", "html", "-o", out], { encoding: "utf8" });
        // a wrong-typed field is reported with its line (the pi compaction's tokensBefore), the page is written
        expect(r.stderr).toMatch(/bonsai: wrote [^\n]*\n$/);
        if (agent === "pi") expect(r.stderr).toMatch(/line \d+: compaction tokensBefore is a string, not a number: shown as text/);
        expect(r.status).toBe(0);
        await assertInert(page, pathToFileURL(out).href);
      }),
      { numRuns: 6, endOnFailure: true },
    );
  });
}
