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
import { hostileDomFindings, hostileSession, hostileString, watchInjected, type HostileAgent } from "../support/hostile";
import { CLI, SHARED_FIXTURES } from "../support/paths";

const SOURCES = {
  pi: "real/pi/codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl",
  "claude-code": "real/claude-code/entireio__cli__cd_95adddad32_0_full.jsonl",
  codex: "real/codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl",
} as const;

async function assertInert(page: Page, url: string): Promise<void> {
  const injected = watchInjected(page);
  await page.goto(url);
  // the page's own script ran (the theme button works) ...
  await page.locator("#theme").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", /light|dark/);
  // ... and nothing else: no handler attribute, no script URL, one script element
  const found = await hostileDomFindings(page);
  expect(found).toEqual({ bad: [], scripts: 1, frames: 0 });
  expect(injected).toEqual([]);
}

for (const agent of Object.keys(SOURCES) as HostileAgent[]) {
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
