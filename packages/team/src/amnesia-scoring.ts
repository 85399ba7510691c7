/** What the amnesia worker exposes (worker/amnesia-worker.ts): one archived session scored from its entries' JSON lines. */
import { amnesiaRowOfLines, type AmnesiaSessionInfo, type AmnesiaSessionRow } from "@bonsai/core";

export const amnesiaScoring = {
  score(info: AmnesiaSessionInfo, lines: string[]): AmnesiaSessionRow | null {
    return amnesiaRowOfLines(info, lines);
  },
};

export type AmnesiaScoring = typeof amnesiaScoring;
