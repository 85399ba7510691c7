export * from "./types";
export { READERS, SNIFF_LINES, WHAT_BONSAI_READS, detectFormat, describeUnknown, firstValues, looksLikePi, readSession, UnknownFormatError, type Detection } from "./detect";
export { originalText } from "./original";
export { agentEventOf, sourceLines } from "./entries";
export { piReader, piFlavor, piSession } from "./pi/reader";
export { claudeCodeReader } from "./claude-code/index";
export { codexReader } from "./codex/index";
export { CLEARED_TOOL_OUTPUT } from "./claude-code/convert";
export { toPiSession, type PiExport, type PiExportOptions } from "./to-pi";
export { entryText, searchEntries, type EntryHit } from "./text";
export { renderSessionMarkdown } from "./markdown-export";
export { isSubstringTerm } from "./scripts";
// The HTML page and the Markdown parser are subpath exports (@bonsai/formats/html, /markdown): they
// bring markdown-it and a hash, which the CLI's light commands must not load with the readers.
export * from "./entire/checkpoints";
