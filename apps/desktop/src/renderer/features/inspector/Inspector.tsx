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
import type { EntryDetail } from "@bonsai/ipc";
import { api } from "../../lib/api";
import { errorMessage, useExplorer } from "../store";
import { useReadOnly } from "../foreign/ReadOnly";
import { AgentEventView, isAgentEvent, SourceLines } from "../foreign/SourceLines";
import { formatInt, formatTime, formatTokens } from "../tree/format";
import { Markdown } from "./Markdown";

type Block = { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown; mimeType?: string };

function ContentBlocks({ content }: { content: string | readonly Block[] | undefined }) {
  if (content === undefined) return null;
  if (typeof content === "string") return <Markdown text={content} />;
  return (
    <>
      {content.map((b, i) => {
        if (b.type === "text") return <Markdown key={i} text={b.text ?? ""} />;
        if (b.type === "thinking")
          return (
            <details key={i} className="bz-thinking" data-testid="inspector-thinking">
              <summary>Thinking ({formatTokens(Math.ceil((b.thinking ?? "").length / 4))} tok)</summary>
              <Markdown text={b.thinking ?? ""} />
            </details>
          );
        if (b.type === "toolCall")
          return (
            <div key={i} className="bz-toolcall" data-testid="inspector-toolcall">
              <div className="bz-toolcall-name">→ {b.name}</div>
              <pre className="bz-code">{JSON.stringify(b.arguments ?? {}, null, 2)}</pre>
            </div>
          );
        if (b.type === "image") return <div key={i} className="bz-muted">[image {b.mimeType}]</div>;
        return <pre key={i} className="bz-code">{JSON.stringify(b, null, 2)}</pre>;
      })}
    </>
  );
}

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
      <Field name="input">{formatInt(usage.input)}</Field>
      <Field name="output">{formatInt(usage.output)}</Field>
      <Field name="cache read">{formatInt(usage.cacheRead)}</Field>
      <Field name="cache write">{formatInt(usage.cacheWrite)}</Field>
      <Field name="total">{formatInt(usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite)}</Field>
      {usage.cost ? <Field name="cost">${usage.cost.total.toFixed(4)}</Field> : null}
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

function origin(e: { fromExtension?: boolean; fromHook?: boolean; offline?: unknown; details?: unknown }): string {
  if (e.fromExtension || e.fromHook) return "a hook or extension";
  const details = typeof e.details === "object" && e.details !== null ? (e.details as { offline?: unknown }) : {};
  if (e.offline === true || details.offline === true) return "Bonsai's offline summarizer";
  return "the summarization model";
}

function EntryLink({ id }: { id: string }) {
  const reveal = useExplorer((s) => s.reveal);
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
        <Field name="tokens before">{formatInt(e.tokensBefore)}</Field>
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
  const sessionId = useExplorer((s) => s.sessionId);
  const readOnly = useReadOnly() !== null;
  const notify = useExplorer((s) => s.notify);
  const restore = async () => {
    if (!sessionId) return;
    try {
      const r = await api().restorePruned({ sessionId, entryIds: [detail.entry.id] });
      notify("info", `Restored ${r.restoredEntryIds.length} tool output(s).`);
      await useExplorer.getState().reloadSkeleton();
      await useExplorer.getState().loadDetail(detail.entry.id, true);
    } catch (err) {
      notify("error", `Restore failed: ${errorMessage(err)}`);
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
  const sessionId = useExplorer((s) => s.sessionId);
  const notify = useExplorer((s) => s.notify);
  const current = useExplorer((s) => {
    const i = s.index?.byId.get(entry.id);
    return i === undefined ? undefined : s.index?.nodes[i]?.label;
  });
  const [value, setValue] = useState(current ?? "");
  useEffect(() => setValue(current ?? ""), [current, entry.id]);
  const save = async (label: string | null) => {
    if (!sessionId) return;
    try {
      await api().setLabel({ sessionId, entryId: entry.id, label });
      await useExplorer.getState().reloadSkeleton();
    } catch (err) {
      notify("error", `Label not saved: ${errorMessage(err)}`);
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
  const selectedId = useExplorer((s) => s.selectedId);
  const detail = useExplorer((s) => (s.selectedId ? s.details[s.selectedId] : undefined));
  const detailError = useExplorer((s) => s.detailError);
  const setState = useExplorer((s) => s.setState);
  const setPanel = useExplorer((s) => s.setPanel);
  const leafId = useExplorer((s) => s.skeleton?.leafId ?? null);
  const readOnly = useReadOnly() !== null;

  if (!selectedId) return <div className="bz-empty">Select a node to inspect it (click, or arrows and Enter).</div>;
  if (selectedId.startsWith("seg:")) return <div className="bz-empty">A collapsed run of entries: click it to expand.</div>;
  if (!detail) return <div className="bz-empty">{detailError ? `Could not load the entry: ${detailError}` : "Loading…"}</div>;
  const e = detail.entry;
  const msg = e.type === "message" ? (e as { message: AgentMessage }).message : undefined;
  return (
    <div className="bz-inspector" data-testid="inspector" data-entry-id={e.id}>
      <header>
        <h3 data-testid="inspector-title">
          {e.type === "message" ? msg?.role : e.type} <span className="bz-muted">{e.id}</span>
        </h3>
        <dl className="bz-fields">
          <Field name="time">{formatTime(e.timestamp)}</Field>
          <Field name="parent">{e.parentId ? <EntryLink id={e.parentId} /> : "root"}</Field>
          <Field name="tokens (est.)"><span data-testid="inspector-tokens">{formatInt(detail.tokens)}</span></Field>
          <Field name="active path">{detail.onActivePath ? "yes" : "no"}</Field>
        </dl>
        <div className="bz-row">
          {e.id !== leafId ? (
            <button type="button" onClick={() => setState({ switchTarget: e.id })} data-testid="inspector-switch">
              Switch branch here…
            </button>
          ) : (
            <>
              <span className="bz-flag bz-flag-leaf">current leaf</span>
              <button type="button" onClick={() => setPanel("compact")} data-testid="inspector-compact">
                Compact…
              </button>
            </>
          )}
        </div>
        {readOnly ? null : <LabelEditor entry={e} />}
      </header>
      {msg ? <MessageView m={msg} detail={detail} /> : null}
      {e.type === "compaction" ? <CompactionView e={e as CompactionEntry} /> : null}
      {e.type === "branch_summary" ? <BranchSummaryView e={e as BranchSummaryEntry} /> : null}
      {e.type === "custom_message" ? <ContentBlocks content={(e as { content: string | Block[] }).content} /> : null}
      {isAgentEvent(e) ? <AgentEventView entry={e} /> : null}
      <SourceLines entry={e} open={isAgentEvent(e)} />
      {!msg && e.type !== "compaction" && e.type !== "branch_summary" && e.type !== "custom_message" && !isAgentEvent(e) ? (
        <pre className="bz-code">{JSON.stringify(e, null, 2)}</pre>
      ) : null}
      <details>
        <summary>Raw JSON</summary>
        <pre className="bz-code" data-testid="inspector-raw">{JSON.stringify(e, null, 2)}</pre>
      </details>
    </div>
  );
}
