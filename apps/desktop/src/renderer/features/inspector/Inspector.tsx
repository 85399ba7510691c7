/**
 * The whole entry behind the selected node: message content, tool calls and outputs (with the
 * original of a pruned output), usage, timestamps, model; compaction and branch-summary details;
 * the label (editable) and the raw JSON.
 */
import { useEffect, useState } from "react";
import type { ReactNode } from "react";
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  BranchSummaryEntry,
  CompactionEntry,
  SessionEntry,
  ToolResultMessage,
  Usage,
} from "@bonsai/core";
import { summaryOrigin, summaryOriginLabel } from "@bonsai/core";
import type { EntryDetail } from "@bonsai/ipc";
import { api, failureSentence } from "../../lib/api";
import { useBonsai } from "../../state/store";
import { ContentBlocks, type Block } from "../content/Blocks";
import { contextTokensAt } from "../tree/context-tokens";
import { formatField, formatInt, formatTime, nodeTitle } from "../tree/format";
import { kindOf } from "../tree/model";
import { useHostReadOnly, useReadOnly } from "../foreign/ReadOnly";
import { AgentEventView, isAgentEvent, SourceLines } from "../foreign/SourceLines";
import { Markdown } from "./Markdown";

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

function UsageTable({ usage }: { usage: Usage }) {
  return (
    <dl className="bz-fields" data-testid="inspector-usage">
      <Field name="input">{formatField(usage.input)}</Field>
      <Field name="output">{formatField(usage.output)}</Field>
      <Field name="cache read">{formatField(usage.cacheRead)}</Field>
      <Field name="cache write">{formatField(usage.cacheWrite)}</Field>
      <Field name="total">{formatField(usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite)}</Field>
      {usage.cost ? <Field name="cost">{formatField((usage.cost as { total?: unknown }).total, (n) => `$${n.toFixed(4)}`)}</Field> : null}
    </dl>
  );
}

function FileLists({ details }: { details: unknown }) {
  if (typeof details !== "object" || details === null) return null;
  const d = details as { readFiles?: unknown; modifiedFiles?: unknown };
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const read = list(d.readFiles);
  const modified = list(d.modifiedFiles);
  if (read.length === 0 && modified.length === 0) return null;
  return (
    <div className="bz-files" data-testid="inspector-files">
      {read.length > 0 ? (
        <>
          <h4>Read files</h4>
          <ul>{read.map((f) => <li key={f}><code>{f}</code></li>)}</ul>
        </>
      ) : null}
      {modified.length > 0 ? (
        <>
          <h4>Modified files</h4>
          <ul>{modified.map((f) => <li key={f}><code>{f}</code></li>)}</ul>
        </>
      ) : null}
    </div>
  );
}

/** who wrote a summary, as the entry records it (core summary-origin.ts, the exports' words) */
function origin(e: { fromExtension?: boolean; fromHook?: boolean; details?: unknown }): string {
  return summaryOriginLabel(summaryOrigin(e));
}

function EntryLink({ id }: { id: string }) {
  const reveal = useBonsai((s) => s.reveal);
  return (
    <button type="button" className="bz-link" onClick={() => reveal(id, "inspect")} data-testid={`link-${id}`}>
      {id}
    </button>
  );
}

function CompactionView({ e }: { e: CompactionEntry }) {
  return (
    <section data-testid="inspector-compaction">
      <dl className="bz-fields">
        <Field name="tokens before">{formatField(e.tokensBefore)}</Field>
        <Field name="first kept">{e.firstKeptEntryId ? <EntryLink id={e.firstKeptEntryId} /> : "—"}</Field>
        <Field name="written by"><span data-testid="inspector-origin">{origin(e)}</span></Field>
      </dl>
      {e.shortSummary ? (
        <>
          <h4>Short summary</h4>
          <p data-testid="inspector-short-summary">{e.shortSummary}</p>
        </>
      ) : null}
      <h4>Summary</h4>
      <div data-testid="inspector-summary">
        <Markdown text={e.summary} />
      </div>
      <FileLists details={e.details} />
      {e.details !== undefined ? (
        <details>
          <summary>Details</summary>
          <pre className="bz-code">{JSON.stringify(e.details, null, 2)}</pre>
        </details>
      ) : null}
      {e.preserveData !== undefined ? (
        <details data-testid="inspector-preserve">
          <summary>Preserved data</summary>
          <pre className="bz-code">{JSON.stringify(e.preserveData, null, 2)}</pre>
        </details>
      ) : null}
    </section>
  );
}

function BranchSummaryView({ e }: { e: BranchSummaryEntry }) {
  return (
    <section data-testid="inspector-branch-summary">
      <dl className="bz-fields">
        <Field name="from">{e.fromId === "root" ? "root" : <EntryLink id={e.fromId} />}</Field>
        <Field name="written by"><span data-testid="inspector-origin">{origin(e)}</span></Field>
      </dl>
      <h4>Summary</h4>
      <Markdown text={e.summary} />
      <FileLists details={e.details} />
    </section>
  );
}

function ToolResultView({ m, detail }: { m: ToolResultMessage; detail: EntryDetail }) {
  const sessionId = useBonsai((s) => s.openSessionId);
  const notify = useBonsai((s) => s.notify);
  const readOnly = useReadOnly() !== null;
  const restore = async () => {
    if (!sessionId) return;
    try {
      const r = await api().restorePruned({ sessionId, entryIds: [detail.entry.id] });
      notify("info", `Restored ${r.restoredEntryIds.length} tool output${r.restoredEntryIds.length === 1 ? "" : "s"}.`, sessionId);
      await useBonsai.getState().reloadSkeleton();
      await useBonsai.getState().loadDetail(detail.entry.id, true);
    } catch (err) {
      notify("error", failureSentence(err, "the output was not restored"), sessionId);
    }
  };
  return (
    <section>
      <dl className="bz-fields">
        <Field name="tool">{m.toolName}</Field>
        <Field name="call id"><code>{m.toolCallId}</code></Field>
        {m.isError ? <Field name="status">error</Field> : null}
        {m.prunedAt ? <Field name="pruned">{formatTime(new Date(m.prunedAt).toISOString())}</Field> : null}
      </dl>
      <h4>{m.prunedAt ? "What the model gets now" : "Output"}</h4>
      <ContentBlocks content={m.content as Block[]} />
      {detail.prunedOriginal ? (
        <div data-testid="inspector-pruned-original">
          <h4>Original output (kept by Bonsai, not sent)</h4>
          <ContentBlocks content={detail.prunedOriginal as Block[]} />
          {readOnly ? null : (
            <button type="button" onClick={() => void restore()} data-testid="inspector-restore">
              Restore this output
            </button>
          )}
        </div>
      ) : null}
    </section>
  );
}

function MessageView({ m, detail }: { m: AgentMessage; detail: EntryDetail }) {
  switch (m.role) {
    case "assistant": {
      const a = m as AssistantMessage;
      return (
        <section>
          <dl className="bz-fields">
            <Field name="model"><span data-testid="inspector-model">{a.provider}/{a.model}</span></Field>
            <Field name="api">{a.api}</Field>
            <Field name="stop">{a.stopReason}</Field>
            {a.errorMessage ? <Field name="error">{a.errorMessage}</Field> : null}
            {a.duration !== undefined ? <Field name="duration">{(a.duration / 1000).toFixed(1)} s</Field> : null}
            {a.ttft !== undefined ? <Field name="first token">{(a.ttft / 1000).toFixed(2)} s</Field> : null}
          </dl>
          <ContentBlocks content={a.content as Block[]} />
          {a.usage ? (
            <>
              <h4>Usage</h4>
              <UsageTable usage={a.usage} />
            </>
          ) : null}
        </section>
      );
    }
    case "toolResult":
      return <ToolResultView m={m} detail={detail} />;
    case "bashExecution": {
      const b = m as BashExecutionMessage;
      return (
        <section>
          <pre className="bz-code">$ {b.command}</pre>
          <pre className="bz-code">{b.output}</pre>
          <dl className="bz-fields">
            <Field name="exit code">{b.exitCode ?? "—"}</Field>
            {b.cancelled ? <Field name="cancelled">yes</Field> : null}
            {b.truncated ? <Field name="truncated">yes</Field> : null}
            {b.excludeFromContext ? <Field name="context">excluded</Field> : null}
          </dl>
        </section>
      );
    }
    case "user":
    case "custom":
    case "hookMessage":
      return (
        <section>
          {"customType" in m ? <div className="bz-muted">{String(m.customType)}</div> : null}
          <ContentBlocks content={m.content as string | Block[]} />
        </section>
      );
    default:
      return <pre className="bz-code">{JSON.stringify(m, null, 2)}</pre>;
  }
}

function LabelEditor({ entry }: { entry: SessionEntry }) {
  const sessionId = useBonsai((s) => s.openSessionId);
  const notify = useBonsai((s) => s.notify);
  const current = useBonsai((s) => {
    const i = s.index?.byId.get(entry.id);
    return i === undefined ? undefined : s.index?.nodes[i]?.label;
  });
  const [value, setValue] = useState(current ?? "");
  useEffect(() => setValue(current ?? ""), [current, entry.id]);
  const save = async (label: string | null) => {
    if (!sessionId) return;
    try {
      await api().setLabel({ sessionId, entryId: entry.id, label });
      await useBonsai.getState().reloadSkeleton();
      void useBonsai.getState().refreshUndo();
    } catch (err) {
      notify("error", failureSentence(err, "the label was not saved"), sessionId);
    }
  };
  return (
    <form
      className="bz-row"
      onSubmit={(ev) => {
        ev.preventDefault();
        void save(value.trim() === "" ? null : value.trim());
      }}
    >
      <input value={value} onChange={(ev) => setValue(ev.target.value)} placeholder="label" maxLength={200} data-testid="label-input" aria-label="Label" />
      <button type="submit" data-testid="label-save">Save label</button>
      {current !== undefined ? (
        <button type="button" onClick={() => void save(null)} data-testid="label-clear">
          Clear
        </button>
      ) : null}
    </form>
  );
}

export function Inspector() {
  const selectedId = useBonsai((s) => s.selectedId);
  const node = useBonsai((s) => {
    const i = s.selectedId ? s.index?.byId.get(s.selectedId) : undefined;
    return i === undefined ? undefined : s.index?.nodes[i];
  });
  const contextTokens = useBonsai((s) => contextTokensAt(s, s.selectedId));
  const estimatedTokens = useBonsai((s) => contextTokensAt({ index: s.index, treeTokens: s.treeEstimates }, s.selectedId));
  const onActivePath = useBonsai((s) => {
    const i = s.selectedId ? s.index?.byId.get(s.selectedId) : undefined;
    return i !== undefined && s.graph ? s.graph.active.region[i] !== 0 : false;
  });
  const detail = useBonsai((s) => (s.selectedId ? s.details[s.selectedId] : undefined));
  const detailError = useBonsai((s) => s.detailError);
  const setWork = useBonsai((s) => s.setWork);
  const setPanel = useBonsai((s) => s.setPanel);
  const leafId = useBonsai((s) => s.skeleton?.leafId ?? null);
  const readOnly = useReadOnly() !== null;
  const hostReadOnly = useHostReadOnly();

  if (!selectedId) return <div className="bz-empty">Select a node to inspect it: click it, or Tab into the tree and use the arrow keys.</div>;
  if (selectedId.startsWith("seg:")) return <SegmentSummary segKey={selectedId} />;
  if (!node) return <div className="bz-empty">This entry is not in the session any more.</div>;
  // the header comes from the tree at once; the entry's content follows when it arrives
  const kind = kindOf(node);
  const e = detail?.entry;
  const msg = e?.type === "message" ? (e as { message: AgentMessage }).message : undefined;
  return (
    <div className="bz-inspector" data-testid="inspector" data-entry-id={node.id} data-loaded={detail ? "true" : "false"}>
      <header>
        <h3 data-testid="inspector-title">
          {nodeTitle({ kind, type: node.type, role: node.role, toolName: node.toolName, customType: node.customType, stopReason: node.stopReason })} <span className="bz-muted">{node.id}</span>
        </h3>
        <dl className="bz-fields">
          <Field name="time">{formatTime(node.timestamp)}</Field>
          <Field name="parent">{node.parentId ? <EntryLink id={node.parentId} /> : "root"}</Field>
          <Field name="this entry adds">
            <span data-testid="inspector-tokens">{formatInt(node.tokens)}</span> tokens (est.){node.type === "compaction" ? ": its summary" : ""}
          </Field>
          <Field name="model sees from here">
            <span data-testid="inspector-context-tokens">{contextTokens === null ? "…" : formatInt(contextTokens)}</span> tokens
            {estimatedTokens !== null && estimatedTokens !== contextTokens ? (
              <span className="bz-muted" data-testid="inspector-estimated-tokens">
                {" "}
                ({formatInt(estimatedTokens)} est. in the file)
              </span>
            ) : null}{" "}
            <button type="button" className="bz-link bz-link-text" onClick={() => setPanel("context")} data-testid="inspector-open-context">
              show what the model sees
            </button>
          </Field>
          <Field name="active path">{onActivePath ? "yes" : "no"}</Field>
        </dl>
        <div className="bz-row">
          {node.id !== leafId ? (
            // a team archive: the leaf does not move, nothing is compacted
            hostReadOnly === null ? (
              <button type="button" onClick={() => setWork({ switchTarget: node.id })} data-testid="inspector-switch">
                Switch branch here…
              </button>
            ) : null
          ) : (
            <>
              <span className="bz-flag bz-flag-leaf">current leaf</span>
              {hostReadOnly === null ? (
                <button type="button" onClick={() => setPanel("compact")} data-testid="inspector-compact">
                  Compact…
                </button>
              ) : null}
            </>
          )}
        </div>
        {e && !readOnly ? <LabelEditor entry={e} /> : null}
      </header>
      {!detail ? <div className="bz-empty">{detailError ? `Could not load the entry: ${detailError}` : "Loading the entry…"}</div> : null}
      {msg && detail ? <MessageView m={msg} detail={detail} /> : null}
      {e?.type === "compaction" ? <CompactionView e={e as CompactionEntry} /> : null}
      {e?.type === "branch_summary" ? <BranchSummaryView e={e as BranchSummaryEntry} /> : null}
      {e?.type === "custom_message" ? <ContentBlocks content={(e as { content: string | Block[] }).content} /> : null}
      {e && isAgentEvent(e) ? <AgentEventView entry={e} /> : null}
      {e ? <SourceLines entry={e} open={isAgentEvent(e)} /> : null}
      {e && !msg && e.type !== "compaction" && e.type !== "branch_summary" && e.type !== "custom_message" && !isAgentEvent(e) ? (
        <pre className="bz-code">{JSON.stringify(e, null, 2)}</pre>
      ) : null}
      {e ? (
        <details>
          <summary>Raw JSON</summary>
          <pre className="bz-code" data-testid="inspector-raw">
            {JSON.stringify(e, null, 2)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}

/** A collapsed run: its counts, what the model sees from its last entry, and how to read it. */
function SegmentSummary({ segKey }: { segKey: string }) {
  const data = useBonsai((s) => {
    const v = s.graph?.flowIndex.get(segKey);
    const n = v === undefined ? undefined : s.graph?.nodes[v];
    return n?.type === "segment" ? n.data : null;
  });
  const contextTokens = useBonsai((s) => (data ? contextTokensAt(s, data.lastId) : null));
  const toggleSegment = useBonsai((s) => s.toggleSegment);
  const setView = useBonsai((s) => s.setView);
  if (!data) return <div className="bz-empty">A collapsed run of entries.</div>;
  return (
    <div className="bz-inspector" data-testid="inspector-segment">
      <h3>{data.count} entries</h3>
      <dl className="bz-fields">
        <Field name="messages">
          {data.users} user · {data.assistants} assistant · {data.tools} tool
        </Field>
        <Field name="they add">{formatInt(data.tokens)} tokens (est.)</Field>
        <Field name="model sees from the last">{contextTokens === null ? "—" : formatInt(contextTokens)} tokens</Field>
        <Field name="first">
          <EntryLink id={data.firstId} />
        </Field>
      </dl>
      <p className="bz-muted">{data.preview}</p>
      <div className="bz-row">
        <button type="button" onClick={() => toggleSegment(segKey)} data-testid="inspector-expand">
          Expand in the tree
        </button>
        <button type="button" onClick={() => setView("transcript")}>
          Read as a transcript
        </button>
      </div>
    </div>
  );
}
