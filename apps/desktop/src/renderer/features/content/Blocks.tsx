/**
 * Message content as a person reads it: text as Markdown, thinking and tool calls folded (open in
 * the inspector, closed in the transcript), images as a note. Shared by the inspector and the
 * transcript.
 */
import { formatTokens } from "../tree/format";
import { Markdown } from "../inspector/Markdown";

export type Block = { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown; mimeType?: string };

/** A tool call's arguments in one line: the path or command when there is one, else its JSON. */
export function callSummary(args: unknown): string {
  if (typeof args !== "object" || args === null) return "";
  const a = args as Record<string, unknown>;
  for (const key of ["command", "path", "file_path", "pattern", "query", "url"]) if (typeof a[key] === "string") return a[key] as string;
  const json = JSON.stringify(a);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

export function ContentBlocks({ content, toolCallsOpen = true }: { content: string | readonly Block[] | undefined; toolCallsOpen?: boolean }) {
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
            <details key={i} className="bz-toolcall" data-testid="inspector-toolcall" open={toolCallsOpen}>
              <summary>
                <span className="bz-toolcall-name">→ {b.name}</span> <code className="bz-toolcall-args">{callSummary(b.arguments)}</code>
              </summary>
              <pre className="bz-code">{JSON.stringify(b.arguments ?? {}, null, 2)}</pre>
            </details>
          );
        if (b.type === "image") return <div key={i} className="bz-muted">[image {b.mimeType}]</div>;
        return <pre key={i} className="bz-code">{JSON.stringify(b, null, 2)}</pre>;
      })}
    </>
  );
}
