export * from "./types";
export { READERS, SNIFF_LINES, WHAT_BONSAI_READS, detectFormat, describeUnknown, firstValues, readSession, UnknownFormatError, type Detection } from "./detect";
export { originalText } from "./original";
export { agentEventOf, sourceLines } from "./entries";
export { piReader, piFlavor } from "./pi/reader";
export { claudeCodeReader } from "./claude-code/index";
export { codexReader } from "./codex/index";
export { CLEARED_TOOL_OUTPUT } from "./claude-code/convert";
export { toPiSession, type PiExport, type PiExportOptions } from "./to-pi";
