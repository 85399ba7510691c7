/** The Codex reader: detection from the content of a rollout's first lines. */
import type { SessionReader } from "../types";
import { isObj } from "../values";
import { CodexReader } from "./reader";

const LINE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted", "world_state"]);

export const codexReader: SessionReader = {
  format: "codex",
  displayName: "Codex",
  sniff: (values) => {
    const first = values.find(isObj);
    return first !== undefined && LINE_TYPES.has(first.type as string) && isObj(first.payload);
  },
  read: (text) => new CodexReader().readAll(text),
  incremental: () => new CodexReader(),
};
