/** The pi reader (core's parser and migration behind the reader interface) on the real pi sessions. */
import { migrateSession, parseSessionText, serializeSession } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { detectFormat, originalText, piReader, readSession } from "../src/index";
import { REAL_FILES, readReal } from "./support/real-files";

describe.skipIf(REAL_FILES.pi.length === 0)("pi sessions (real files)", () => {
  for (const name of REAL_FILES.pi) {
    it(`${name.slice(0, 60)}: read as core reads it, and written back byte for byte`, () => {
      const text = readReal("pi", name);
      expect(detectFormat(text).reader).toBe(piReader);
      const session = readSession(text);
      const core = parseSessionText(text);
      migrateSession(core.header as NonNullable<typeof core.header>, core.entries);
      expect(session.entries).toEqual(core.entries);
      expect(session.header).toEqual(core.header);
      expect(session).toMatchObject({ format: "pi", agent: "pi", readOnly: false, original: null, leafId: core.entries[core.entries.length - 1]?.id });
      expect(session.stats.lines).toBe(text.split("\n").filter((l, i, all) => i < all.length - 1 || l !== "").length);
      expect(originalText(session)).toBe(serializeSession(session.header, session.entries));
      expect(originalText(session)).toBe(text);
    });
  }
});
