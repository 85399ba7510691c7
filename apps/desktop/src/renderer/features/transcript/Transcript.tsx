/**
 * The reading view ("Transcript"): the active path — or the path to a selected node off it — as a
 * conversation. Markdown is rendered, tool calls and results fold, compactions and branch summaries
 * are dividers that say what they replaced, and what the latest compaction summarized is folded
 * away (not sent). Each run of agent events (Claude Code and Codex lines beside the conversation)
 * is one row that opens to show them. Selecting a message selects its node in the tree, and a node selected anywhere
 * (tree, search, panels) is scrolled to and marked here. Long paths are read in windows.
 */
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { AgentMessage, AssistantMessage, BashExecutionMessage, BranchSummaryEntry, CompactionEntry, SessionEntry, SkeletonNode, ToolResultMessage } from "@bonsai/core";
import type { EntryDetail } from "@bonsai/ipc";
import { api, errorMessage } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { ContentBlocks, type Block } from "../content/Blocks";
import { Markdown } from "../inspector/Markdown";
import { contextTokensAt } from "../tree/context-tokens";
import { formatField, formatInt, formatTime, formatTokens, nodeTitle } from "../tree/format";
import { kindOf } from "../tree/model";
import { transcriptPath, type TranscriptItem } from "./reading-path";
import { eventRunKinds, eventRunTitle, transcriptRows, type EventRun } from "./rows";

const WINDOW = 120;
const FETCH = 400;

/** The entry the transcript ends at: a selected node off the active path, else the leaf. */
function useEndId(): string | null {
  return useBonsai((s) => {
    const leaf = s.skeleton?.leafId ?? null;
    const v = s.selectedId && s.graph ? s.graph.flowIndex.get(s.selectedId) : undefined;
    const node = v === undefined ? undefined : s.graph?.nodes[v];
    if (!node || node.data.onPath) return leaf;
    return node.type === "segment" ? node.data.lastId : node.id;
  });
}

export function Transcript() {
  const index = useBonsai((s) => s.index);
  const treeTokens = useBonsai((s) => s.treeTokens);
  const skeleton = useBonsai((s) => s.skeleton);
  const sessionId = useBonsai((s) => s.openSessionId);
  const selectedId = useBonsai((s) => s.selectedId);
  const reveal = useBonsai((s) => s.reveal);
  const endId = useEndId();
  const leafId = skeleton?.leafId ?? null;
  const [unfolded, setUnfolded] = useState(false);
  // runs of agent events the reader opened or closed; a new selection forgets the closings (its run opens)
  const [choices, setChoices] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const path = useMemo(() => (index ? transcriptPath(index, endId) : null), [index, endId]);
  const selectedEntry = selectedId && !selectedId.startsWith("seg:") ? selectedId : null;
  const rows = useMemo(() => {
    if (!path || !index) return [];
    const eventOf = (id: string) => {
      const n = index.nodes[index.byId.get(id) ?? -1];
      return n?.type === "agent_event" ? (n.customType ?? "event") : undefined;
    };
    return transcriptRows(path.items, { unfolded, eventOf, choices, reveal: selectedEntry });
  }, [path, index, unfolded, choices, selectedEntry]);
  useEffect(() => setChoices((was) => new Map([...was].filter(([, open]) => open))), [selectedEntry]);
  const toggleRun = (run: EventRun) => setChoices((was) => new Map(was).set(run.key, !run.open));
  const selectedRow = selectedEntry ? rows.findIndex((r) => r.kind === "entry" && r.id === selectedEntry) : -1;
  const [span, setSpan] = useState<[number, number]>([0, 0]);
  // a new path, or a selection outside the window: the window moves to it (the end by default)
  useEffect(() => {
    setSpan((w) => {
      const target = selectedRow >= 0 ? selectedRow : rows.length - 1;
      if (w[1] > w[0] && w[1] <= rows.length && target >= w[0] && target < w[1]) return w;
      const to = Math.min(rows.length, Math.max(target + Math.floor(WINDOW / 3), Math.min(rows.length, WINDOW)));
      return [Math.max(0, to - WINDOW), to];
    });
  }, [rows, selectedRow]);

  const shown = rows.slice(span[0], span[1]);
  const wanted = useMemo(() => shown.flatMap((r) => (r.kind === "entry" ? [r.id] : [])), [shown]);
  const details = useEntries(sessionId, skeleton, wanted);

  const selectedRef = useRef<HTMLLIElement | null>(null);
  const endRef = useRef<HTMLDivElement | null>(null);
  const loaded = details.size > 0;
  // the selected message is brought into view; without a selection, the end of the conversation
  useEffect(() => {
    if (selectedRef.current) selectedRef.current.scrollIntoView({ block: "center" });
    else endRef.current?.scrollIntoView({ block: "end" });
  }, [selectedEntry, loaded, endId]);

  if (!index || !path) return <div className="bz-empty">No session open.</div>;
  const offPath = endId !== leafId;
  const node = (id: string) => {
    const i = index.byId.get(id);
    return i === undefined ? undefined : index.nodes[i];
  };
  return (
    <div className="bz-transcript" data-testid="transcript" aria-label="Transcript">
      <div className="bz-transcript-head">
        {offPath ? (
          <>
            <span data-testid="transcript-scope">
              The path to <code>{endId}</code> (not the active path): {path.length.toLocaleString()} entries
            </span>
            <button type="button" onClick={() => leafId && reveal(leafId)} data-testid="transcript-to-leaf">
              Back to the active path
            </button>
          </>
        ) : (
          <span data-testid="transcript-scope">The active path: {path.length.toLocaleString()} entries, root to leaf</span>
        )}
        <span className="bz-muted">
          Showing {span[1] > span[0] ? span[0] + 1 : 0}–{span[1]} of {rows.length.toLocaleString()}
        </span>
      </div>
      {span[0] > 0 ? (
        <button type="button" className="bz-transcript-more" onClick={() => setSpan(([a, b]) => [Math.max(0, a - WINDOW), b])} data-testid="transcript-earlier">
          Show {Math.min(WINDOW, span[0])} earlier entries
        </button>
      ) : null}
      <ol className="bz-transcript-list">
        {shown.map((r) =>
          r.kind === "events" ? (
            <EventRunRow key={`events-${r.key}`} run={r} onToggle={() => toggleRun(r)} />
          ) : r.kind === "fold" ? (
            <li key={`fold-${r.compactionId}`} className="bz-tr-fold" data-testid="transcript-fold">
              <span>
                {r.ids.length.toLocaleString()} earlier {r.ids.length === 1 ? "entry was" : "entries were"} summarized by the compaction below and {r.ids.length === 1 ? "is" : "are"} not sent to the model.
              </span>
              <button type="button" onClick={() => setUnfolded(true)} data-testid="transcript-unfold">
                Show them
              </button>
            </li>
          ) : (
            <TranscriptRow
              key={r.id}
              node={node(r.id)}
              detail={details.get(r.id)}
              summarized={r.summarized}
              inRun={r.inRun === true}
              selected={r.id === selectedEntry}
              rowRef={r.id === selectedEntry ? selectedRef : undefined}
              onSelect={() => (r.id === selectedEntry ? undefined : reveal(r.id))}
              onReveal={(id) => reveal(id)}
              summarizedCount={(id) => summarizedBy(path.items, id)}
              contextFrom={(id) => contextTokensAt({ index, treeTokens }, id)}
            />
          ),
        )}
      </ol>
      {span[1] < rows.length ? (
        <button type="button" className="bz-transcript-more" onClick={() => setSpan(([a, b]) => [a, Math.min(rows.length, b + WINDOW)])} data-testid="transcript-later">
          Show {Math.min(WINDOW, rows.length - span[1])} later entries
        </button>
      ) : null}
      {unfolded ? (
        <button type="button" className="bz-transcript-more" onClick={() => setUnfolded(false)}>
          Fold the summarized entries again
        </button>
      ) : null}
      <div ref={endRef} />
    </div>
  );
}

/** One row for a run of agent events: what they are, and a disclosure that shows them (as entries) below it. */
function EventRunRow({ run, onToggle }: { run: EventRun; onToggle(): void }) {
  return (
    <li className={`bz-tr-events${run.summarized ? " bz-tr-summarized" : ""}`} data-testid="transcript-events" data-count={run.ids.length} data-open={run.open ? "true" : "false"}>
      <button type="button" className="bz-tr-events-toggle" aria-expanded={run.open} onClick={onToggle} data-testid="transcript-events-toggle">
        <span aria-hidden="true" className="bz-tr-events-mark">
          {run.open ? "▾" : "▸"}
        </span>
        {eventRunTitle(run)}
      </button>
      <span className="bz-muted bz-tr-events-kinds">{eventRunKinds(run)}</span>
    </li>
  );
}

/** How many entries the compaction `id` summarized, when it is the latest one on the path. */
function summarizedBy(items: readonly TranscriptItem[], id: string): number | null {
  const fold = items.find((i) => i.kind === "summarized" && i.compactionId === id);
  return fold && fold.kind === "summarized" ? fold.ids.length : null;
}

/** Whole entries for the ids shown, fetched in batches; dropped when the tree changes. */
function useEntries(sessionId: string | null, skeleton: unknown, ids: readonly string[]): Map<string, EntryDetail> {
  const [cache, setCache] = useState<{ key: unknown; map: Map<string, EntryDetail> }>({ key: skeleton, map: new Map() });
  const notify = useBonsai((s) => s.notify);
  const map = cache.key === skeleton ? cache.map : new Map<string, EntryDetail>();
  const missing = ids.filter((id) => !map.has(id));
  const missingKey = missing.join(",");
  useEffect(() => {
    if (!sessionId || missing.length === 0) return;
    let live = true;
    void (async () => {
      try {
        const got = new Map(map);
        for (let k = 0; k < missing.length; k += FETCH) {
          const { entries } = await api().getEntries({ sessionId, entryIds: missing.slice(k, k + FETCH) });
          for (const e of entries) got.set(e.entry.id, e);
        }
        if (live) setCache({ key: skeleton, map: got });
      } catch (err) {
        if (live) notify("error", `The transcript could not read these entries: ${errorMessage(err)}`, sessionId);
      }
    })();
    return () => {
      live = false;
    };
  }, [sessionId, skeleton, missingKey]);
  return map;
}

interface RowProps {
  node: SkeletonNode | undefined;
  detail: EntryDetail | undefined;
  summarized: boolean;
  /** one of the agent events of an opened run */
  inRun: boolean;
  selected: boolean;
  rowRef?: RefObject<HTMLLIElement | null>;
  onSelect(): void;
  onReveal(id: string): void;
  summarizedCount(id: string): number | null;
  contextFrom(id: string): number | null;
}

function TranscriptRow({ node, detail, summarized, inRun, selected, rowRef, onSelect, onReveal, summarizedCount, contextFrom }: RowProps) {
  if (!node) return null;
  const kind = kindOf(node);
  const cls = `bz-tr bz-tr-${kind}${selected ? " bz-tr-selected" : ""}${summarized ? " bz-tr-summarized" : ""}${inRun ? " bz-tr-in-run" : ""}`;
  const who = nodeTitle({ kind, type: node.type, role: node.role, toolName: node.toolName, customType: node.customType, stopReason: node.stopReason });
  const head = (
    <div className="bz-tr-head">
      <button type="button" className="bz-tr-who" onClick={onSelect} aria-pressed={selected} title="Select this entry in the tree">
        {who}
      </button>
      <span className="bz-muted">
        {formatTime(node.timestamp)}
        {node.tokens > 0 ? ` · ${formatTokens(node.tokens)} tok` : ""}
        {summarized ? " · not sent" : ""}
      </span>
    </div>
  );
  const body = detail ? (
    <EntryBody entry={detail.entry} detail={detail} preview={node.preview} summarizedCount={summarizedCount} contextFrom={contextFrom} onReveal={onReveal} />
  ) : (
    <div className="bz-muted">{node.preview}</div>
  );
  return (
    <li
      ref={rowRef}
      className={cls}
      data-testid="transcript-message"
      data-entry-id={node.id}
      data-entry-type={node.type}
      data-kind={kind}
      aria-current={selected ? "true" : undefined}
      onClick={(e) => {
        // clicks on links, folds and buttons inside do their own thing
        if (e.target instanceof HTMLElement && e.target.closest("a, button, summary, details[open] pre")) return;
        onSelect();
      }}
    >
      {head}
      {body}
    </li>
  );
}

interface BodyProps {
  entry: SessionEntry;
  detail: EntryDetail;
  /** the tree's one-line preview of the entry */
  preview: string;
  summarizedCount(id: string): number | null;
  contextFrom(id: string): number | null;
  onReveal(id: string): void;
}

function EntryBody({ entry, detail, preview, summarizedCount, contextFrom, onReveal }: BodyProps) {
  if (entry.type === "compaction") {
    const c = entry as CompactionEntry;
    const n = summarizedCount(c.id);
    const after = contextFrom(c.id);
    return (
      <div className="bz-tr-divider bz-tr-divider-compaction" data-testid="transcript-compaction">
        <div className="bz-tr-divider-title">
          {n !== null ? `${n.toLocaleString()} earlier entries` : "The entries before it"} ({formatField(c.tokensBefore)} tokens before) replaced by a summary
          {after !== null ? `; the model sees ${formatInt(after)} tokens from here` : ""}
          {c.firstKeptEntryId ? (
            <>
              {" "}
              · kept from{" "}
              <button type="button" className="bz-link" onClick={() => onReveal(c.firstKeptEntryId!)}>
                {c.firstKeptEntryId}
              </button>
            </>
          ) : null}
        </div>
        <details>
          <summary>The summary ({formatTokens(detail.tokens)} tok)</summary>
          <Markdown text={c.summary} />
        </details>
      </div>
    );
  }
  if (entry.type === "branch_summary") {
    const b = entry as BranchSummaryEntry;
    return (
      <div className="bz-tr-divider bz-tr-divider-branch" data-testid="transcript-branch-summary">
        <div className="bz-tr-divider-title">
          What happened on the abandoned branch
          {b.fromId && b.fromId !== "root" ? (
            <>
              {" "}
              that ended at{" "}
              <button type="button" className="bz-link" onClick={() => onReveal(b.fromId)}>
                {b.fromId}
              </button>
            </>
          ) : null}
          , in place of it
        </div>
        <details>
          <summary>The summary ({formatTokens(detail.tokens)} tok)</summary>
          <Markdown text={b.summary} />
        </details>
      </div>
    );
  }
  if (entry.type === "custom_message") return <ContentBlocks content={(entry as { content: string | Block[] }).content} />;
  if (entry.type !== "message") return <div className="bz-tr-note">{preview}</div>;
  const m = (entry as { message: AgentMessage }).message;
  switch (m.role) {
    case "assistant": {
      const a = m as AssistantMessage;
      return (
        <>
          <ContentBlocks content={a.content as Block[]} toolCallsOpen={false} />
          {a.errorMessage ? <div className="bz-error">{a.errorMessage}</div> : null}
        </>
      );
    }
    case "toolResult": {
      const t = m as ToolResultMessage;
      return (
        <details className="bz-tr-tool">
          <summary>
            {t.toolName} output{t.isError ? " (error)" : ""}
            {t.prunedAt ? " (pruned: the model gets a notice)" : ""}
          </summary>
          <ContentBlocks content={t.content as Block[]} />
        </details>
      );
    }
    case "bashExecution": {
      const b = m as BashExecutionMessage;
      return (
        <details className="bz-tr-tool">
          <summary>
            <code>$ {b.command}</code> (exit {b.exitCode ?? "—"})
          </summary>
          <pre className="bz-code">{b.output}</pre>
        </details>
      );
    }
    default:
      return <ContentBlocks content={(m as { content?: string | Block[] }).content} />;
  }
}
