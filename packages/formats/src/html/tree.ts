/**
 * The session tree as nested lists: each linear run of entries is one segment, listed by its user
 * prompts, compactions, branch summaries and labels (the rest counted); branch points nest their
 * branches. Entries on the active path link to the transcript. Built without recursion.
 */
import { buildIndex, resolveLabels, type CompactionEntry, type SessionEntry } from "@bonsai/core";
import { countHtml, escapeHtml } from "./escape";
import { kindOf, previewOf } from "./labels";

const NOTABLE = new Set(["user", "compaction", "branchSummary"]);

function row(entry: SessionEntry, anchor: string | undefined, label: string | undefined): string {
  const kind = kindOf(entry);
  const tokens = kind === "compaction" ? ` <span class="badge">${countHtml((entry as CompactionEntry).tokensBefore)} tokens before</span>` : "";
  const spawned = (entry as { spawnedBy?: unknown }).spawnedBy !== undefined;
  const mark = kind === "compaction" ? "Compaction" : kind === "branchSummary" ? "Branch summary" : spawned ? "Sub-agent" : "";
  const text = `${mark ? `<b>${mark}</b>${tokens} ` : ""}${escapeHtml(previewOf(entry, 90))}${label ? ` <span class="label">${escapeHtml(label)}</span>` : ""}`;
  return anchor ? `<a class="row ${kind}" href="#${anchor}">${text}</a>` : `<span class="row ${kind}">${text}</span>`;
}

/**
 * @param anchors entry id -> anchor of its transcript block (entries on the active path)
 */
export function renderTree(entries: readonly SessionEntry[], anchors: ReadonlyMap<string, string>, leafId: string | null): string {
  const index = buildIndex(entries);
  const labels = resolveLabels(entries);
  const roots = entries.filter((e, i) => index.position.get(e.id) === i && (e.parentId === null || e.parentId === e.id || !index.byId.has(e.parentId)));
  const out: string[] = ['<ul class="tree">'];
  // a stack of pending segment starts and closing tags
  const stack: (SessionEntry | string)[] = [...roots].reverse();
  while (stack.length > 0) {
    const item = stack.pop() as SessionEntry | string;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const run: SessionEntry[] = [item];
    for (let children = index.children.get(item.id) ?? []; children.length === 1; children = index.children.get((run[run.length - 1] as SessionEntry).id) ?? []) run.push(children[0] as SessionEntry);
    const last = run[run.length - 1] as SessionEntry;
    const active = anchors.has(item.id);
    const rows: string[] = [];
    let skipped = 0;
    const flushSkipped = (): void => {
      if (skipped > 0) rows.push(`<span class="row more">… ${skipped} ${skipped === 1 ? "entry" : "entries"}</span>`);
      skipped = 0;
    };
    run.forEach((e, i) => {
      const label = labels.get(e.id);
      if (i === 0 || NOTABLE.has(kindOf(e)) || label !== undefined || e.id === leafId) {
        flushSkipped();
        rows.push(row(e, anchors.get(e.id), label) + (e.id === leafId ? ' <span class="badge leaf">leaf</span>' : ""));
      } else skipped++;
    });
    flushSkipped();
    const children = index.children.get(last.id) ?? [];
    out.push(`<li class="segment${active ? " active" : ""}"><div class="rows">${rows.join("")}</div>`);
    if (children.length > 1) {
      out.push(`<ul class="branches">`);
      stack.push("</ul></li>");
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as SessionEntry);
    } else out.push("</li>");
  }
  out.push("</ul>");
  return out.join("");
}
