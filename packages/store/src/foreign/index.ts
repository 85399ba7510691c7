export { detectSource, detectSourceOf, type SourceKind } from "./detect";
export { ReadOnlySessionError, readOnlyReason, isForeignFormat, agentDisplayName, type ForeignFormat } from "./read-only";
export { storedReadSession } from "./stored-read-session";
export { AgentTally } from "./agents";
export { continueInPi } from "./continue-in-pi";
